import FerryModel
import FerryStore

/// The values a store keeps outside their rows (`ExternalValueNames`) as text, the form an export
/// manifest (`EntityFile.externalData`) and PostgreSQL's catalog (`ferry_stores.external_data`)
/// keep them in: by attribute, then by `Z_PK` in decimal (JSON keys are text), the name of each
/// value's file in the store's external data folder.
enum ExternalDataText {
    typealias Names = [String: [String: String]]

    /// Why text names values a restore cannot keep outside.
    struct Problem: Error {
        let reason: String
    }

    /// The text of `names`; nil when there are none.
    static func text(_ names: ExternalValueNames) -> Names? {
        names.isEmpty ? nil : names.mapValues { Dictionary(uniqueKeysWithValues: $0.map { (String($0.key), $0.value) }) }
    }

    /// The names `text` gives the values of `entity`'s records.
    /// - Throws: `Problem` for an attribute of `entity` that does not allow external storage (or
    ///   none of that name), a key that is no `Z_PK`, a name that is not a plain file name.
    static func names(_ text: Names, of entity: String, model: ManagedObjectModel) throws(Problem) -> ExternalValueNames {
        var names: ExternalValueNames = [:]
        for (attribute, files) in text {
            guard model.allAttributes(of: entity).contains(where: { $0.name == attribute && $0.allowsExternalBinaryDataStorage }) else {
                throw Problem(reason: "names \(attribute), which is no attribute of \(entity) that allows external storage")
            }
            for (key, file) in files {
                guard let primaryKey = Int64(key), primaryKey > 0 else {
                    throw Problem(reason: "\(attribute) lists \"\(key)\", which is no Z_PK")
                }
                guard case .external(let name)? = try? ExternalBinaryData.decode(ExternalBinaryData.reference(to: file)), name == file else {
                    throw Problem(reason: "\"\(file)\" is not a file name")
                }
                names[attribute, default: [:]][primaryKey] = file
            }
        }
        return names
    }
}
