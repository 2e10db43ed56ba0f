/// How a model archive lists, in a sub-entity's `NSProperties`, the properties it inherits
/// (modelcache-format.md §4.10, §6).
///
/// No key of the archive names the form. Core Data picks it from a run-time flag of the model (set
/// when the model is made immutable with an optimization style), so a decoder can only tell it from
/// the objects it finds, and a model keeps it to be written back the same way.
public enum InheritedPropertyForm: String, Sendable, Codable {
    /// A full copy of each inherited property, its `NSEntity` the sub-entity (most stores: CoreDataPlus,
    /// NoteStore, RMAdminStore-Local).
    case copies
    /// A `_NSPropertyDescriptionProxy` for each inherited property: `NSUnderlyingProperty` is the
    /// declaring entity's property object, `NSEntityDescription` the sub-entity, `NSReferenceID` the
    /// property's index in Core Data's order of the sub-entity's properties (apptentive
    /// `ATDataModelv6`, plaso `netusage`).
    case proxies
}
