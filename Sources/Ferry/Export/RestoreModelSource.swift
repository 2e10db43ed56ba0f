import FerryModel

/// Where a restore's model version comes from: a bundle holding it, or the version itself.
/// Either way its version hashes must be those recorded with the records (`RestoreModel`).
public enum RestoreModelSource: Sendable {
    /// An `.xcdatamodeld` bundle (or one `.xcdatamodel`), searched by version hashes.
    case bundle(String)
    /// A model version already loaded (a store's own, say), described for messages.
    case version(ManagedObjectModel, origin: String)

    /// The version with `hashes` (base64, by entity), recorded as `recordedVersion`.
    func resolve(hashes: [String: String], recordedVersion: String) throws(ExportError) -> ManagedObjectModel {
        switch self {
        case .bundle(let path):
            try RestoreModel.version(in: path, hashes: hashes, recordedVersion: recordedVersion)
        case let .version(version, origin):
            try RestoreModel.version(among: [version], from: origin, hashes: hashes, recordedVersion: recordedVersion)
        }
    }

    /// The bundle's path, a file a restore reads; nil for a version already loaded.
    var path: String? {
        if case .bundle(let path) = self { path } else { nil }
    }
}
