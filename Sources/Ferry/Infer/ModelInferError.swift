import FerryMigration

/// Why `ferry model infer` wrote nothing.
public enum ModelInferError: Error, CustomStringConvertible {
    /// The request itself is wrong (an entity name Xcode refuses, no sources).
    case invalidRequest(String)
    /// A source could not be read on.
    case source(RecordSourceError)
    /// No key of the records can become a property (the files hold no objects, or only keys
    /// with empty arrays or values no type holds): import would refuse them with any such model.
    case nothingToModel(String)
    /// The file's records carry `Z_PK` (`EntityProfile.carriesStoreKeys`): a model of them would
    /// make the store's keys an attribute and the keys its relationships list new records.
    case storeRows(String)
    /// The bundle could not be written or put in place, or did not load back as written.
    case output(ModelExtractError)

    public var description: String {
        switch self {
        case .invalidRequest(let reason): reason
        case .source(let error): error.description
        case .nothingToModel(let reason): reason
        case .storeRows(let path):
            "\(path): its records carry Z_PK, the row key of a Core Data store (a Ferry export, or a dump of a store's table): "
                + "a model inferred from them would make the keys an attribute, and the keys its relationships list records of new "
                + "entities, which import would then create. Rebuild the store from an export's folder with "
                + "`ferry restore FOLDER --model MODEL --out STORE`, or take the model a store carries with `ferry model extract STORE`"
        case .output(let error): error.description
        }
    }
}
