import JSONAPI

/// What deleting a resource does to the resources whose to-one relationship names it: the same
/// rule for every data source that knows who names its resources (a SQL table's foreign key,
/// ``InMemoryDataSource/toOne(_:in:onDelete:)``).
public enum ResourceDeleteRule: Sendable, Hashable {
    /// The delete is refused (409, naming the relationship) while any resource names it.
    case refuse
    /// The resources that name it are deleted too (and, by their own rules, those that name them).
    case cascade
    /// Their relationship is set to `null`.
    case setNull
}

extension JSONAPIHTTPError {
    /// 409: a write of the to-many relationship `member` would take resources out of it whose
    /// to-one relationship `inverse` (of type `type`), which the to-many is the inverse of, cannot
    /// be null. The refusal of every data source that keeps inverse pairs.
    package static func requiredInverse(of member: String, keptBy type: String, as inverse: String) -> JSONAPIHTTPError
    {
        JSONAPIHTTPError(
            status: 409, code: "required-relationship", title: "Conflict",
            detail: "`\(type)` resources keep their `\(inverse)`: they cannot leave `\(member)`",
            source: .pointer("/data/relationships/\(member)"))
    }
}
