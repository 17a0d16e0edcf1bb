#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock: a `pthread` mutex, held for the duration of ``withLock(_:)``.
///
/// The library's modules share state through it rather than through Synchronization's `Mutex`,
/// for two reasons. `Mutex` exists on Apple platforms only from macOS 15, iOS 18, tvOS 18,
/// watchOS 11 and visionOS 2, later than the systems the library supports; a `pthread` mutex is
/// on all of them. And on Linux a contended `Mutex` is handed from one thread to the next inside
/// the kernel (a priority-inheriting futex), where ThreadSanitizer cannot see it, so it reports
/// every contended critical section as a data race (a `Mutex<[Int: [Int]]>` updated from 8
/// threads gave 5 or 6 reports a run; the same code with a `pthread` mutex gave none), while it
/// intercepts `pthread` mutexes: the state behind this lock can be checked under contention
/// (scripts/tsan), and a race the lock does not cover still shows.
///
/// `@unchecked Sendable` as `Mutex` is: the value is reached only inside `withLock`, while the
/// mutex is held, and what goes in or comes out is `sending`.
@safe
package final class Locked<Value>: @unchecked Sendable {
    // SAFETY: allocated and initialised in `init`, destroyed and freed in `deinit`, never shared
    // outside this object, so every use below is of a live, initialised mutex.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `value`.
    package init(_ value: sending Value) {
        self.value = value
        // SAFETY: a fresh allocation of one mutex, initialised before any use.
        unsafe mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        unsafe mutex.initialize(to: pthread_mutex_t())
        unsafe _ = pthread_mutex_init(mutex, nil)
    }

    deinit {
        // SAFETY: the mutex was initialised in `init`; nothing holds it once the object goes.
        unsafe _ = pthread_mutex_destroy(mutex)
        unsafe mutex.deinitialize(count: 1)
        unsafe mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        // SAFETY: the mutex lives as long as `self` (see `init`).
        unsafe _ = pthread_mutex_lock(mutex)
        defer { unsafe _ = pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
