"""What scripts/portability holds the sources to: which platforms each target builds for, what
each platform's `#if` conditions evaluate to, and which C names exist on Apple's platforms.

No Apple SDK is installed where this runs, so every fact here comes from a published source, named
beside it. The availability of Swift's and Foundation's own API is not written here: the check
reads it from the toolchain's modules (their symbol graphs carry the `@available` attributes Apple
platforms build with).
"""

# The Apple platforms, as `@available` and `#if os(...)` spell them.
APPLE = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")

# Products an app links (every Apple platform, and Linux); everything else is for servers and
# developer machines (Linux and macOS). A target is listed by its directory under Sources/.
APP_TARGETS = {"JSONAPI", "JSONAPIClient", "JSONAPIMacros", "JSONAPITesting"}
# The macro's compiler plugin runs where the compiler runs: macOS and Linux.
SERVER_PLATFORMS = ("macOS",)
APP_PLATFORMS = APPLE


def platforms_of(target):
    """The Apple platforms `target` must build for (every target also builds on Linux, where the
    compiler checks it)."""
    return APP_PLATFORMS if target in APP_TARGETS else SERVER_PLATFORMS


# The configurations `#if` is evaluated under: one per platform and processor that a product may
# be built for. watchOS devices since Series 4 run arm64_32 (32-bit pointers and `Int`); Series 9
# and Ultra 2 run arm64. The Apple simulators on Intel Macs are x86_64.
CONFIGURATIONS = [
    # (name, os, arch, pointer bit width)
    ("macOS arm64", "macOS", "arm64", 64),
    ("macOS x86_64", "macOS", "x86_64", 64),
    ("iOS arm64", "iOS", "arm64", 64),
    ("iOS simulator x86_64", "iOS", "x86_64", 64),
    ("tvOS arm64", "tvOS", "arm64", 64),
    ("watchOS arm64_32", "watchOS", "arm64_32", 32),
    ("watchOS arm64", "watchOS", "arm64", 64),
    ("visionOS arm64", "visionOS", "arm64", 64),
    ("Linux x86_64", "Linux", "x86_64", 64),
    ("Linux aarch64", "Linux", "aarch64", 64),
]


def can_import(module, os, arch):
    """`canImport(module)` on a platform: True, False, or None where the answer depends on what
    else is installed (then the check takes both branches as possibly active)."""
    if module == "_Builtin_intrinsics.intel":
        return arch == "x86_64"  # clang's x86 intrinsics module
    if module in ("Darwin", "os", "Network", "CoreFoundation"):
        return os in APPLE
    if module == "UIKit":
        return os in ("iOS", "tvOS", "visionOS")
    if module == "AppKit":
        return os == "macOS"
    if module in ("Glibc", "FoundationNetworking", "FoundationXML"):
        # swift-corelibs-foundation splits URLSession and XML into modules of their own; Apple's
        # Foundation has them in Foundation.
        return os == "Linux"
    if module == "FoundationEssentials":
        # swift-foundation's module is not part of Apple's SDKs: there Foundation is imported.
        return os == "Linux"
    if module in ("Musl",):
        return None if os == "Linux" else False  # the static Linux SDK
    if module in ("ucrt", "WinSDK", "WASILibc"):
        return False
    if module in ("Foundation", "Dispatch", "Synchronization", "Observation", "_Concurrency"):
        return True
    return None


# Modules that exist only on Linux (see can_import): importing one where an Apple build reads it is
# an error there.
LINUX_ONLY_MODULES = {"Glibc", "SwiftGlibc", "Musl", "FoundationNetworking", "FoundationXML", "FoundationEssentials"}

# C names code built for Apple platforms may use: those of Darwin's libc and kernel interfaces that
# the sources call, each checked against Apple's man pages (developer.apple.com, "man 2"/"man 3"
# on macOS) and the iOS SDK's usr/include. Anything else from a C module (a glibc or Linux call:
# mremap, madvise's MADV_HUGEPAGE, posix_fadvise, malloc_usable_size, epoll, ...) must sit under
# `#if os(Linux)` or `#if canImport(Glibc)`. Adding a name here is a claim about Apple's SDKs;
# write where it was checked.
DARWIN_C_NAMES = {
    # <unistd.h>, <fcntl.h>: POSIX file I/O (open(2), read(2), write(2), close(2), lseek(2))
    "open", "read", "write", "close", "lseek", "fsync", "unlink", "isatty", "getpid", "usleep",
    "O_RDONLY", "O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "O_CLOEXEC",
    "STDIN_FILENO", "STDOUT_FILENO", "STDERR_FILENO",
    # <errno.h>, <string.h>
    "errno", "strerror", "EINTR", "EAGAIN", "ENOENT", "EEXIST",
    "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strcmp", "strncmp",
    # <stdlib.h>: malloc(3)
    "malloc", "calloc", "realloc", "free", "posix_memalign", "getenv", "setenv", "exit", "abort",
    # <sys/mman.h>: mmap(2), munmap(2), madvise(2) (the MADV_ advice below is POSIX's, not Linux's)
    "mmap", "munmap", "madvise", "PROT_READ", "PROT_WRITE", "MAP_PRIVATE", "MAP_ANONYMOUS", "MAP_ANON",
    "MAP_FAILED", "MADV_SEQUENTIAL", "MADV_WILLNEED", "MADV_DONTNEED",
    # <sys/stat.h>: stat(2)
    "stat", "fstat", "S_IFMT", "S_IFREG", "S_IFDIR", "st_mode", "st_size",
    # <stdio.h>: rename(2); <errno.h>: intro(2)
    "rename", "EISDIR", "ENOTDIR", "EACCES",
    # <math.h>: pow(3), exp(3), log(3)
    "pow", "exp", "log", "log2", "log10", "floor", "ceil", "sqrt",
    # <pthread.h>
    "pthread_mutex_t", "pthread_mutex_init", "pthread_mutex_destroy", "pthread_mutex_lock",
    "pthread_mutex_unlock", "pthread_mutex_trylock", "pthread_self",
    # <stdio.h>
    "fputs", "fflush", "fwrite", "stdout", "stderr", "printf", "fprintf", "FILE",
    # <time.h>: clock_gettime(3) (macOS 10.12, iOS 10)
    "clock_gettime", "timespec", "CLOCK_MONOTONIC", "CLOCK_REALTIME",
    # <sys/resource.h>: getrusage(2)
    "getrusage", "rusage", "RUSAGE_SELF",
}

# Names of the library's own C targets (Sources/C*/include, and the system headers a system-library
# target's shim includes, as libyajl's) are allowed too: the check reads them.

# clang's x86 intrinsics (`_mm_*`, `__m128i`), from the `_Builtin_intrinsics.intel` module: every
# x86_64 platform has them (Intel Macs and their simulators included); code using them sits under
# `#if canImport(_Builtin_intrinsics.intel)`, which the region evaluation holds to x86_64.
def is_x86_intrinsic(name):
    return name.startswith("_mm_") or name.startswith("_mm256_") or name.startswith("__m128") or name.startswith("__m256")

# Words a header of the package's C targets may mention that must not count as declared by it.
LINUX_ONLY_NAMES_IN_HEADERS = {"mremap", "posix_fadvise", "malloc_usable_size", "mallinfo", "malloc_trim"}
