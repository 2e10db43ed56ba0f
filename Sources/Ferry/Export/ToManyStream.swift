import FerryStore

/// The destinations of one to-many relationship, source by source, from an edge cursor sorted
/// by source (then order): a merge join against records read in `Z_PK` order.
final class ToManyStream {
    /// The relationship, and the entity (declaring it or inheriting it) whose pairs are read.
    let entity: String
    let relationship: String
    private let cursor: RelationshipEdgeCursor
    private var pending: RelationshipEdge?
    private var started = false
    /// The pairs handed out so far, all sources together (`KeyRowDigest.count` of them).
    private(set) var delivered = KeyRowDigest()
    /// Pairs passed over because no source asked for them: their source key names no record.
    private(set) var passedOver: Int64 = 0

    init(cursor: RelationshipEdgeCursor, entity: String, relationship: String) {
        self.cursor = cursor
        self.entity = entity
        self.relationship = relationship
    }

    /// The destinations of `source`; sources must be asked for in increasing order.
    func destinations(of source: Int64) throws(StoreReaderError) -> [Int64] {
        if !started {
            pending = try cursor.next()
            started = true
        }
        while let edge = pending, edge.source < source {
            passedOver += 1
            pending = try cursor.next()
        }
        var result: [Int64] = []
        while let edge = pending, edge.source == source {
            result.append(edge.destination)
            pending = try cursor.next()
        }
        for destination in result { delivered.add(source, destination) }
        return result
    }

    /// Reads the pairs after the last source asked for, counting them as passed over; returns
    /// `passedOver`. Call once every source was asked for.
    func finish() throws(StoreReaderError) -> Int64 {
        if !started {
            pending = try cursor.next()
            started = true
        }
        while pending != nil {
            passedOver += 1
            pending = try cursor.next()
        }
        return passedOver
    }
}
