"""The one place that calls ``numba.njit``.

Every kernel is compiled with numba's on-disk cache, so that a second process
loads the machine code instead of compiling it again.  fastscore's kernels
cache in the folder :func:`fastscore._cache.kernel_cache_dir` (one per version
of the package's sources, so that no kernel loads code compiled against an
older version of a function it inlines).  Set ``NUMBA_DISABLE_JIT=1`` to run
the kernels as plain Python (coverage, debugging).

No global state is changed: importing fastscore leaves ``numba.config`` and
numba's list of cache locators as they are, so the caller's own
``cache=True`` functions cache where numba puts them without fastscore (their
``__pycache__``, or ``NUMBA_CACHE_DIR``).  Each of fastscore's dispatchers gets
its own cache object (:class:`_KernelCache`, made on the dispatcher's first
compile or load: :class:`_LazyKernelCache`) whose first locator
(:class:`_KernelCacheLocator`) claims only functions defined in a file inside
the fastscore package; anything else falls through to numba's own locators.

Where numba's own settings are given, they apply to fastscore's kernels too:

- ``NUMBA_CACHE_DIR`` (or ``numba.config.CACHE_DIR``) set: numba's own locator
  puts every function's cache in that folder, fastscore's included, as numba
  documents.  numba then checks only the file that defines a kernel, not the
  files of the functions it inlines, so empty that folder after upgrading
  or editing fastscore.
- ``NUMBA_CACHE_LOCATOR_CLASSES`` set: numba uses that list of locators for
  every function, fastscore's included.

This leans on numba's caching internals (``numba.core.caching``: the locator
base classes, ``CompileResultCacheImpl``, ``FunctionCache``, and the
dispatcher's ``_cache``, which is what ``enable_caching`` sets);
``tests/test_jit.py`` checks where each kernel's cache lands and that a second
process loads fastscore's from it.
"""

from __future__ import annotations

import os
import types
from functools import lru_cache

import numba
from numba.core import caching
from numba.core.dispatcher import Dispatcher

from ._cache import PACKAGE_DIR, kernel_cache_dir, source_digest

__all__ = ["BatchKernel", "jit", "jit_batch", "jit_inline", "jit_parallel", "prange", "SERIAL_MAX_ROWS",
           "PARALLEL_MIN_ROWS", "threads_may_share_kernels", "twin"]

prange = numba.prange

#: Batches of at most this many rows run a :class:`BatchKernel`'s serial build: waking numba's
#: thread pool (OpenMP here) costs tens of microseconds, more than the work on a smaller batch.
#: Measured on 2 cores (scripts in bench/README.md): scoring 512 hands takes 517 us serial and
#: 208 us parallel, 1,000 hands 888 and 384 us; below about 256 rows the two are alike.
SERIAL_MAX_ROWS = 511
#: The smallest batch that runs a :class:`BatchKernel`'s parallel build.
PARALLEL_MIN_ROWS = SERIAL_MAX_ROWS + 1


class _KernelCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Puts a function defined inside the fastscore package in :func:`~fastscore._cache.kernel_cache_dir`.

    Laid out as numba lays out ``NUMBA_CACHE_DIR`` (a subfolder per source
    folder).  Returns no locator, so that numba's own locators decide, for a
    function defined anywhere else, when ``numba.config.CACHE_DIR`` is set,
    or when the folder cannot be written.
    """

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(kernel_cache_dir(), self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if numba.config.CACHE_DIR or not _in_package(py_file):
            return None
        return super().from_function(py_func, py_file)


def _in_package(py_file: str) -> bool:
    """True when ``py_file`` lies inside the fastscore package folder."""
    try:
        return os.path.commonpath([os.path.realpath(py_file), str(PACKAGE_DIR)]) == str(PACKAGE_DIR)
    except (TypeError, ValueError):  # not a path, or on another drive
        return False


class _KernelCacheImpl(caching.CompileResultCacheImpl):
    """numba's cache implementation, with :class:`_KernelCacheLocator` tried before numba's own locators."""

    @property
    def _locator_classes(self):
        return [_KernelCacheLocator, *caching.CompileResultCacheImpl._locator_classes]


class _KernelCache(caching.FunctionCache):
    """numba's function cache, located by :class:`_KernelCacheImpl`; set on fastscore's dispatchers only."""

    _impl_class = _KernelCacheImpl


class _LazyKernelCache:
    """A dispatcher's :class:`_KernelCache`, made on its first use (the first compile or load, or any other
    attribute read).

    Making one finds its folder and checks that it can be written: about a millisecond, for each of
    the package's 380 dispatchers at import, most of which a process never calls from Python (the
    ``jit_inline`` helpers are compiled into their callers).  Made lazily, importing fastscore
    takes about 0.3 s less.  The sources' digest, which names the folder, is still fixed when the
    kernels are defined (:func:`_njit`), so that a kernel compiled later is saved for the code it
    runs even if the files change meanwhile; ``$FASTSCORE_CACHE`` is read at the first use.
    """

    __slots__ = ("_py_func", "_cache")

    def __init__(self, py_func):
        self._py_func = py_func
        self._cache = None

    def __getattr__(self, name):
        # Every other name goes to the real cache (numba's dispatcher reads load_overload, save_overload,
        # flush, cache_path); not a special name, nor a slot not set yet (copy makes the object without
        # __init__, and an unset slot would come back here).
        if name.startswith("__") or name in _LazyKernelCache.__slots__:
            raise AttributeError(name)
        cache = self._cache
        if cache is None:
            cache = self._cache = _KernelCache(self._py_func)
        return getattr(cache, name)


def _njit(func, **options):
    """``numba.njit(**options)(func)`` with the disk cache of :class:`_KernelCache` (what ``cache=True``
    does, with fastscore's locator, made on first use; plain ``func`` when ``NUMBA_DISABLE_JIT`` is set)."""
    dispatcher = numba.njit(nogil=True, **options)(func)
    if isinstance(dispatcher, Dispatcher):
        source_digest()  # fixed now, with the code numba will compile (once a process: a cached call)
        # With NUMBA_CACHE_DIR, numba's own locator keys the entries by the file's stamp alone: taken now, as
        # numba's cache=True takes it.
        cache = _KernelCache if numba.config.CACHE_DIR else _LazyKernelCache
        dispatcher._cache = cache(dispatcher.py_func)
    return dispatcher


def jit(func):
    """Compile ``func`` in nopython mode with the on-disk cache."""
    return _njit(func)


def jit_block(func):
    """Like :func:`jit`, for a kernel's per-row loop (a block of rows) and for the per-hand functions of
    :mod:`fastscore.nb` (called once a hand from the caller's loop), compiled without numba's reference
    counting (``_nrt=False``).

    Every helper that takes arrays leaves, once inlined into a loop, reference count updates (calls into
    numba's runtime, atomic) that numba's pruning pass does not remove: measured, loading one hand's
    counts cost 85-90 ns a row through :func:`load_counts <fastscore.kernels.shanten.load_counts>`
    and 23-28 ns with this.  The function and what it inlines must not allocate (scratch comes from the
    caller); numba refuses to compile one that does.
    """
    return _njit(func, _nrt=False)


def jit_inline(func):
    """Like :func:`jit`, and inlined into compiled callers at numba's IR level (``inline='always'``).

    For small helpers on the hot path that take arrays: numba counts the
    references of every array passed to a call it does not inline, on every
    call.  Each caller compiles its own copy, so use it for small functions.
    """
    return _njit(func, inline="always")


def jit_parallel(func):
    """Like :func:`jit`, with ``parallel=True`` for kernels that ``prange`` over hands.

    The function is compiled as a renamed :func:`twin` (``<name>_parallel``): numba's
    disk cache names its entries by function, not by compile flags, so the
    same function compiled both serial and parallel would otherwise load
    whichever build was cached first.
    """
    return _njit(twin(func, "parallel"), parallel=True)


def twin(func, suffix, **globals_replaced):
    """A copy of the Python function behind ``func`` (a dispatcher or a plain function), named
    ``<name>_<suffix>`` (its own numba cache entry), in which the global names ``globals_replaced``
    stand for other functions.

    For a second build of the same code: :func:`jit_parallel`'s, and the
    single-hand kernels' build of the scoring path, which calls what the
    per-block scoring loops inline (:mod:`fastscore.kernels.score`, :mod:`fastscore.kernels.batch_loops`).  Without
    ``globals_replaced`` the copy reads its module's globals as the function
    does; with them it reads a copy of that module's globals taken now, so
    call it at the end of the module, where every name it reads is defined.
    """
    py_func = getattr(func, "py_func", func)
    names = py_func.__globals__
    if globals_replaced:
        names = {**names, **globals_replaced}
    copy = types.FunctionType(py_func.__code__, names, f"{py_func.__name__}_{suffix}", py_func.__defaults__,
                              py_func.__closure__)
    copy.__qualname__ = f"{py_func.__qualname__}_{suffix}"
    copy.__module__ = py_func.__module__
    copy.__doc__ = py_func.__doc__
    return copy


class BatchKernel:
    """A kernel over the rows of a batch, compiled serial and parallel; calls pick by size.

    The first argument must be an array whose first axis is the rows: a
    batch of at most :data:`SERIAL_MAX_ROWS` rows runs the serial build (a single
    hand never starts the thread pool, nor loads the parallel build), a larger
    one the parallel build.  Both builds are compiled lazily, on first use.
    """

    def __init__(self, func):
        self.serial = jit(func)
        self.parallel = jit_parallel(func)
        self.__doc__ = func.__doc__
        self.__name__ = func.__name__

    def build(self, n_rows: int):
        """The build that runs a batch of ``n_rows`` rows: serial up to :data:`SERIAL_MAX_ROWS`, else parallel."""
        return self.parallel if n_rows > SERIAL_MAX_ROWS else self.serial

    def __call__(self, rows, *args):
        return self.build(rows.shape[0])(rows, *args)


def jit_batch(func) -> BatchKernel:
    """Compile ``func`` (a loop with ``prange`` over the rows of its first argument) as a :class:`BatchKernel`."""
    return BatchKernel(func)


@lru_cache(maxsize=1)
def threads_may_share_kernels() -> bool:
    """True when two Python threads may run parallel kernels at the same time.

    numba's ``omp`` and ``tbb`` threading layers allow it; ``workqueue``, the
    fallback where neither OpenMP nor TBB is installed, aborts the process
    ("Concurrent access has been detected").  Pipelines that run kernels on
    background threads (:func:`fastscore.io.read_ahead`, the result writers)
    run them on the caller's thread instead when this is False.  Starts
    numba's thread pool (as the first parallel kernel would) to learn which
    layer it chose.
    """
    from numba.np.ufunc import parallel

    parallel._launch_threads()
    return numba.threading_layer() != "workqueue"
