import JSONAPI
import Logging
import PostgresKit
import SQLiteKit

/// What a database failure means to a client, told without a word of SQL, a table name or a
/// driver's message (those go to the log).
enum SQLFailure {
    /// The JSON:API answer to `error`, which a driver threw.
    static func classify(_ error: any Error, flavor: SQLFlavor, retryAfter: Int, logger: Logger) -> JSONAPIHTTPError {
        switch kind(of: error) {
        case .unavailable:
            logger.warning("database unavailable", metadata: ["error": "\(String(reflecting: error))"])
            return .serviceUnavailable("the database cannot be reached; try again later", retryAfter: retryAfter)
        case .unique:
            return .conflict("the resource conflicts with one that exists")
        case .foreignKey:
            return JSONAPIHTTPError(
                status: 409, code: "conflict", title: "Conflict",
                detail: "the change breaks a relationship between resources")
        case .concurrentChange:
            return JSONAPIHTTPError(
                status: 409, code: "concurrent-change", title: "Conflict",
                detail: "another request changed the same resources at the same time; send the request again")
        case .other:
            logger.error("database failure", metadata: ["error": "\(String(reflecting: error))"])
            return JSONAPIHTTPError(
                status: 500, code: "database-failure", title: "Internal Server Error",
                detail: "the database failed to answer")
        }
    }

    enum Kind {
        case unavailable
        case unique
        case foreignKey
        case concurrentChange
        case other
    }

    static func kind(of error: any Error) -> Kind {
        if error is SQLConnectionTimeout { return .unavailable }
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                switch state {
                case "23505": return .unique
                case "23503": return .foreignKey
                // A deadlock or a serialization failure: the other transaction won; this one
                // may be sent again.
                case "40P01", "40001": return .concurrentChange
                // Connection exceptions, insufficient resources, operator intervention (the
                // server shutting down), and a server not yet accepting connections.
                case _ where state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57"):
                    return .unavailable
                default: return .other
                }
            }
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
                .sslUnsupported, .failedToAddSSLHandler:
                return .unavailable
            default: return .other
            }
        }
        if let error = error as? SQLiteError {
            switch error.reason {
            case .constraintUniqueFailed, .constraintPrimaryKeyFailed: return .unique
            case .constraintForeignKeyFailed: return .foreignKey
            case .busy, .busyTimeout, .locked, .cantOpen, .ioError, .full: return .unavailable
            default: return .other
            }
        }
        // NIO's connection errors (refused, reset) reach here wrapped or bare.
        let text = String(reflecting: error)
        if text.contains("connectionRefused") || text.contains("ECONNREFUSED") || text.contains("connectTimeout") {
            return .unavailable
        }
        return .other
    }
}
