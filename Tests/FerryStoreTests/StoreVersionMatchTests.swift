import FerryModel
import FerryStore
import Testing

/// The one rule that says which model version a store belongs to.
@Suite("store version matching")
struct StoreVersionMatchTests {
    private let v1 = ManagedObjectModel(name: "V1", entities: [Entity(name: "A", attributes: [Attribute(name: "x", type: .string)])])
    private let v2 = ManagedObjectModel(name: "V2", entities: [
        Entity(name: "A", attributes: [Attribute(name: "x", type: .string)]), Entity(name: "B"),
    ])
    private let v3 = ManagedObjectModel(name: "V3", entities: [Entity(name: "A", attributes: [Attribute(name: "y", type: .string)])])

    private func hashes(_ model: ManagedObjectModel, only names: Set<String>? = nil) -> [String: [UInt8]] {
        VersionHasher.hashes(of: model).entityHashes.filter { names?.contains($0.key) ?? true }
    }

    @Test("a version with exactly the store's entities and hashes wins over a newer one that only adds entities")
    func exactBeforeLarger() throws {
        let exact = try StoreVersionMatch.match(hashes(v1), in: [v1, v2, v3]).get()
        #expect(exact.index == 0 && exact.version.name == "V1" && exact.model == v1)
        let own = try StoreVersionMatch.match(hashes(v2), in: [v1, v2, v3]).get()
        #expect(own.index == 1 && own.model == v2)
        // Versions with identical hashes hold the store alike: the newest of them.
        let same = ManagedObjectModel(name: "V1 again", entities: v1.entities)
        #expect(try StoreVersionMatch.match(hashes(v1), in: [v1, same, v2]).get().index == 1)
        // A store of one configuration of V2 (entity A alone) is V2's, though V4 adds an entity too.
        var configured = v2
        configured.configurations = [Configuration(name: "Local", entityNames: ["A"])]
        let v4 = ManagedObjectModel(name: "V4", entities: v2.entities + [Entity(name: "C")])
        let local = try StoreVersionMatch.match(hashes(v2, only: ["A"]), in: [configured, v4]).get()
        #expect(local.index == 0 && local.model.entities.map(\.name) == ["A"])
    }

    @Test("without an exact match, the newest version holding every entity with its hash wins, narrowed to the store's entities")
    func newestLarger() throws {
        let v4 = ManagedObjectModel(name: "V4", entities: v2.entities + [Entity(name: "C")])
        let match = try StoreVersionMatch.match(hashes(v1), in: [v2, v4, v3]).get()
        #expect(match.index == 1 && match.version.name == "V4")
        #expect(match.model.entities.map(\.name) == ["A"])
    }

    @Test("no match names the closest version and what differs; empty hashes match nothing")
    func mismatch() {
        var changed = hashes(v2)
        changed["B"] = [UInt8](repeating: 7, count: 32)
        guard case .failure(let mismatch) = StoreVersionMatch.match(changed, in: [v1, v2, v3]) else {
            Issue.record("a changed hash matched")
            return
        }
        #expect(mismatch.closest?.name == "V2" && mismatch.differing == ["B"])
        guard case .failure(let empty) = StoreVersionMatch.match([:], in: [v1, v2]) else {
            Issue.record("empty hashes matched a version")
            return
        }
        #expect(empty.closest == nil)
    }
}
