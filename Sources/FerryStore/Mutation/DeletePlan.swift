/// Everything a delete does, worked out before anything is written: `StoreDeleter.plan` makes
/// it, `StoreDeleter.apply` carries it out (or refuses when `blocked` is not empty).
public struct DeletePlan: Sendable, Equatable {
    /// Objects deleted, in the order found: the matching objects first (by `Z_PK`), then the
    /// cascaded ones, each with why it goes.
    public var deleted: [DeletedObject] = []
    /// Inverse references cleared on objects that stay (Nullify).
    public var nullified: [Nullification] = []
    /// Destinations of Deny relationships: any one refuses the whole delete.
    public var blocked: [DenyBlock] = []
    /// References left pointing at deleted objects (No Action), as Core Data leaves them.
    public var dangling: [Nullification] = []
    /// Join-table rows removed, by join table.
    public var joinRowsRemoved: [String: Int] = [:]
    /// Destinations that stay, of a deleted object's to-many relationships without an inverse:
    /// the key naming the deleted object is cleared on their rows, as the relationship goes with
    /// its source the way join-table rows do (`relationship` is nil, `via` names the to-many).
    /// Their `Z_OPT` is unchanged, as for join-table rows [?: no store shows what Core Data does].
    public var unlinked: [Nullification] = []
    /// Objects that stay and change (a reference of theirs is cleared): their `Z_OPT` goes up by one.
    public var modified: [ObjectKey] = []
    /// Objects that stay whose relationship Nullify would leave below what the model requires (a
    /// required to-one left nil, a to-many under its minimum count): Core Data's validation
    /// refuses to save them, so any one refuses the whole delete, as a Deny rule does.
    public var invalidated: [RequiredReference] = []
    /// Keys on objects that stay pointing at deleted objects through a to-one relationship no
    /// delete rule reaches: it has no inverse, or its inverse's key in the deleted object's row
    /// is empty. Core Data leaves them pointing at nothing (the app throws when it faults one
    /// in), so any one refuses the whole delete, as a Deny rule does.
    public var stranded: [StrandedReference] = []
    /// The files of the store's external data folder that deleted objects' values are kept in
    /// (`ExternalFileRelease`): removed after the delete commits, those no other row names.
    public var externalFiles: [String] = []
    /// How many of `externalFiles` the delete removed (0 in a plan not carried out).
    public var externalFilesRemoved = 0
}

/// A surviving object whose relationship a delete would leave with fewer destinations than the
/// model requires.
public struct RequiredReference: Sendable, Hashable, CustomStringConvertible {
    public var object: ObjectKey
    /// `Entity.relationship`, as declared.
    public var relationship: String
    /// The destinations it would keep.
    public var remaining: Int
    /// The fewest it may have: 1 for a required to-one, the minimum count of a to-many.
    public var minimum: Int

    public init(object: ObjectKey, relationship: String, remaining: Int, minimum: Int) {
        self.object = object
        self.relationship = relationship
        self.remaining = remaining
        self.minimum = minimum
    }

    public var description: String {
        "\(object) would keep \(remaining) of the \(minimum) destination\(minimum == 1 ? "" : "s") \(relationship) requires"
    }
}

/// A key on an object that stays pointing at a deleted object, through `relationship`
/// (`Entity.name`, as declared on the object's side), which no delete rule reaches.
public struct StrandedReference: Sendable, Hashable, CustomStringConvertible {
    public var object: ObjectKey
    public var relationship: String
    public var deletedObject: ObjectKey

    public init(object: ObjectKey, relationship: String, deletedObject: ObjectKey) {
        self.object = object
        self.relationship = relationship
        self.deletedObject = deletedObject
    }

    public var description: String { "\(object) through \(relationship): would point at deleted \(deletedObject)" }

    /// One line per relationship, how many references and the first few:
    /// `Node.ref: 2 (Node(4) → Label(3), …)`.
    public static func summary(_ references: [StrandedReference]) -> [String] {
        Dictionary(grouping: references, by: \.relationship).sorted { $0.key < $1.key }.map { name, held in
            let shown = held.prefix(5).map { "\($0.object) → \($0.deletedObject)" }.joined(separator: ", ")
            return "\(name): \(held.count) (\(shown)\(held.count > 5 ? ", …" : ""))"
        }
    }
}

/// One object a delete removes.
public struct DeletedObject: Sendable, Hashable {
    public var object: ObjectKey
    /// Nil for an object the predicate matched; else the deleted object whose Cascade
    /// relationship brought this one in.
    public var source: ObjectKey?
    /// The Cascade relationship (`Entity.relationship`, as declared), with `source`.
    public var relationship: String?

    public init(object: ObjectKey, source: ObjectKey? = nil, relationship: String? = nil) {
        self.object = object
        self.source = source
        self.relationship = relationship
    }
}

extension DeletePlan {
    /// The keys No Action leaves pointing at deleted objects, as the independent check counts
    /// them (`ChangeCheck.danglingForeignKey`), under either side's name: what the delete adds
    /// to the store's findings on purpose, as Core Data's No Action does.
    var danglingFindings: [ChangeFinding: Int64] {
        var findings: [ChangeFinding: Int64] = [:]
        for reference in dangling {
            for subject in Set([reference.relationship, reference.via].compactMap { $0 }) {
                findings[ChangeFinding(check: ChangeCheck.danglingForeignKey, subject: subject, message: ""), default: 0] += 1
            }
        }
        return findings
    }
}

/// A reference on a surviving object to a deleted one, through `relationship` (`Entity.name` as
/// declared on the surviving object's side, nil when that side has no inverse), reached from the
/// deleted object's relationship `via`.
public struct Nullification: Sendable, Hashable {
    public var object: ObjectKey
    public var relationship: String?
    public var deletedObject: ObjectKey
    public var via: String

    public init(object: ObjectKey, relationship: String?, deletedObject: ObjectKey, via: String) {
        self.object = object
        self.relationship = relationship
        self.deletedObject = deletedObject
        self.via = via
    }
}

/// An object that cannot be deleted: its Deny relationship still reaches `destination`.
public struct DenyBlock: Sendable, Hashable, CustomStringConvertible {
    public var object: ObjectKey
    /// `Entity.relationship`, as declared.
    public var relationship: String
    public var destination: ObjectKey

    public init(object: ObjectKey, relationship: String, destination: ObjectKey) {
        self.object = object
        self.relationship = relationship
        self.destination = destination
    }

    public var description: String { "\(object) cannot be deleted: \(relationship) still has \(destination)" }
}
