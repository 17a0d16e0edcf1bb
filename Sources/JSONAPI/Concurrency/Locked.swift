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
/// One allocation holds both the value and the mutex (a `ManagedBuffer`, whose tail keeps the
/// mutex at a fixed address for its whole life, as `pthread` requires). Copies of a `Locked`
/// share the one lock.
///
/// `@unchecked Sendable`: the value is `Sendable` itself, and is reached only inside `withLock`,
/// while the mutex is held.
package struct Locked<Value: Sendable>: @unchecked Sendable {
    private let storage: Storage

    /// A lock around `value`.
    package init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withLock(body)
    }

    /// The value and, in the buffer's tail, the mutex.
    @safe
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        /// A buffer holding `value`, with its mutex initialised.
        static func make(_ value: Value) -> Storage {
            let buffer = unsafe Storage.create(minimumCapacity: 1) { _ in value }
            // SAFETY: `create` called on this subclass makes an instance of it.
            let storage = unsafe unsafeDowncast(buffer, to: Storage.self)
            unsafe storage.withUnsafeMutablePointerToElements { mutex in
                // SAFETY: the tail holds room for one mutex (minimum capacity 1), initialised here
                // before any use, at an address that stays fixed while the buffer lives.
                unsafe mutex.initialize(to: pthread_mutex_t())
                unsafe _ = pthread_mutex_init(mutex, nil)
            }
            return storage
        }

        deinit {
            unsafe withUnsafeMutablePointerToElements { mutex in
                // SAFETY: initialised in `make`; nothing holds it once the buffer goes.
                unsafe _ = pthread_mutex_destroy(mutex)
                unsafe mutex.deinitialize(count: 1)
            }
        }

        func withLock<Result, Failure: Error>(
            _ body: (inout Value) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            // SAFETY: the tail of a `ManagedBuffer` stays where it is while the buffer lives, which
            // is at least as long as this call; the mutex there was initialised in `make`.
            let mutex = unsafe withUnsafeMutablePointerToElements { unsafe $0 }
            unsafe _ = pthread_mutex_lock(mutex)
            defer { unsafe _ = pthread_mutex_unlock(mutex) }
            return try unsafe body(&header)
        }
    }
}
