import Ferry
import FerryModel
import FerryStore

/// Arbitrary bytes as a Core Data store: what `ferry inspect STORE` does (metadata, model cache,
/// counts read and counted with plain SQL), then every record of every entity of the model the
/// store carries.
enum StoreTarget {
    static func store(_ bytes: [UInt8]) {
        let path = ScratchFile.store(bytes, as: "Fuzz.sqlite")
        _ = try? StoreReport(path: path, bundlePath: nil)
        guard let store = try? CoreDataStoreReader(path: path), let cache = try? store.modelCache(),
              let model = try? ModelArchiveDecoder.decodeModelCache(cache, name: "Fuzz", limit: 16 << 20),
              let reader = try? store.records(model: model) else { return }
        for entity in model.entities {
            guard let cursor = try? reader.records(of: entity.name) else { continue }
            var rows = 0
            while rows < 10_000, let record = try? cursor.next() {
                _ = record
                rows += 1
            }
        }
    }
}
