/// The idle timeout of the servers the tests start, except where a test is about timeouts.
///
/// The test process runs many suites at once on a small machine, and a CPU-bound one can hold the
/// concurrency pool for tens of seconds. Vapor's idle timeout counts while a handler runs, so with
/// the adapters' 30-second default a request that waits that long for the pool would be cut off,
/// and the test would report a closed connection that no client of a real server would see.
let testServerIdleTimeout: Duration = .seconds(600)
