import FerryStore

/// The pairs of a relationship that a fingerprint keeping some objects' pairs only
/// (`KeptPairEnds`) counts, each end named by `Z_PK`. A pair in an ordered list is ranked among
/// the kept pairs of its list, as a store that left out the others numbers it, so the pairs of
/// ordered lists are held until every pair is read; others are fingerprinted as they come.
struct KeptPairs {
    private let orders: [PairOrder]
    private let reversed: Bool
    private var held: [(source: Int64, destination: Int64)] = []
    /// `orders.count` ranks per held pair, in the source store's numbering.
    private var heldRanks: [Int64] = []
    private var bytes: [UInt8] = []

    /// `orders`: the lists whose ranks a pair carries, in the scan's order; `reversed`: each pair
    /// is encoded destination first.
    init(orders: [PairOrder], reversed: Bool) {
        self.orders = orders
        self.reversed = reversed
    }

    /// Counts a pair kept, with its rank in each of `orders` among all of the store's pairs.
    mutating func add(_ pair: (source: Int64, destination: Int64), ranks: [Int64], to fingerprint: inout Fingerprint) {
        guard orders.isEmpty else {
            held.append(pair)
            heldRanks.append(contentsOf: ranks)
            return
        }
        add(pair, ranks: ranks[...], to: &fingerprint)
    }

    /// Adds the held pairs, each ranked among the kept pairs of its list.
    mutating func finish(into fingerprint: inout Fingerprint) {
        guard !orders.isEmpty else { return }
        let width = orders.count
        var ranks = heldRanks
        for (index, order) in orders.enumerated() {
            let owners = order.end == .source ? held.map(\.source) : held.map(\.destination)
            let owner = { (pair: Int) in owners[pair] }
            let listed = held.indices.sorted { (owner($0), heldRanks[$0 * width + index]) < (owner($1), heldRanks[$1 * width + index]) }
            var previousOwner: Int64?
            var rank: Int64 = 0
            for pair in listed {
                rank = owner(pair) == previousOwner ? rank + 1 : 1
                previousOwner = owner(pair)
                ranks[pair * width + index] = rank
            }
        }
        for pair in held.indices { add(held[pair], ranks: ranks[(pair * width)..<((pair + 1) * width)], to: &fingerprint) }
    }

    private mutating func add(_ pair: (source: Int64, destination: Int64), ranks: ArraySlice<Int64>, to fingerprint: inout Fingerprint) {
        bytes.removeAll(keepingCapacity: true)
        KeyValueReader.appendPrimaryKey(reversed ? pair.destination : pair.source, to: &bytes)
        KeyValueReader.appendPrimaryKey(reversed ? pair.source : pair.destination, to: &bytes)
        for rank in ranks { CanonicalEncoding.append(.integer(rank), to: &bytes) }
        bytes.withUnsafeBytes { fingerprint.add(encoded: $0) }
    }
}
