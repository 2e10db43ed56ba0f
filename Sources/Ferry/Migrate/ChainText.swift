/// The ways a migration's records take (`MigrationChain.chains`) in words: `chain V1 → V2 → V3`,
/// or `chains V1 → V3; V2 → V3` when the ways of sources of several versions part.
public enum ChainText {
    /// `chain`, or `chains` when there are several.
    public static func label(_ chains: [[String]]) -> String {
        chains.count == 1 ? "chain" : "chains"
    }

    /// The versions of each chain, oldest first: `V1 → V3; V2 → V3`.
    public static func ways(_ chains: [[String]]) -> String {
        chains.map { $0.joined(separator: " → ") }.joined(separator: "; ")
    }
}
