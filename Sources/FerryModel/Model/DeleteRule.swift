/// What happens to a relationship's destination when its source is deleted.
public enum DeleteRule: String, Sendable, CaseIterable, Codable {
    /// Clear the inverse on the destination.
    case nullify = "Nullify"
    /// Delete the destination too.
    case cascade = "Cascade"
    /// Refuse the delete while the relationship has destinations.
    case deny = "Deny"
    /// Leave the destination alone, dangling inverse included.
    case noAction = "No Action"

    /// The numeric value of `NSDeleteRule`.
    public var code: Int {
        switch self {
        case .noAction: 0
        case .nullify: 1
        case .cascade: 2
        case .deny: 3
        }
    }

    /// Looks a rule up by its numeric `NSDeleteRule` value.
    public init?(code: Int) {
        guard let match = DeleteRule.allCases.first(where: { $0.code == code }) else { return nil }
        self = match
    }
}
