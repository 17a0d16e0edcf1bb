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
