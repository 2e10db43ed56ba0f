/// The objects, by `Z_PK`, whose pairs count when a relationship's pairs are fingerprinted as a
/// store holds them that left out the others (a migration that filtered records): a pair counts
/// when its source is among `sources` and its destination among `destinations`.
public struct KeptPairEnds: Sendable {
    public var sources: Set<Int64>
    public var destinations: Set<Int64>

    public init(sources: Set<Int64>, destinations: Set<Int64>) {
        self.sources = sources
        self.destinations = destinations
    }

    func keeps(source: Int64, destination: Int64) -> Bool {
        sources.contains(source) && destinations.contains(destination)
    }
}
