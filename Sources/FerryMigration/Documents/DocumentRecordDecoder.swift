import FerryFormats
import FerryModel

/// Decodes one object of a JSON or property-list document into a record of an entity.
///
/// Keys match attributes and relationships as `PropertyKeyMatcher` does (a key that matches
/// several attributes alike refuses the source). Attribute values go through `DocumentCoercion`. A relationship key holds one destination or an array of them:
///
/// - Values (`"tags": ["work", "home"]`) become links that find the destination by an attribute,
///   named per relationship in `linkAttributes`, or by default the destination's single-attribute
///   uniqueness constraint (`Tag.name`).
/// - Objects (`"attachments": [{"remotePath": "/a.jpg"}]`) are records of the destination
///   entity, decoded by the same rules (key matching without the key map, coercion, defaults,
///   required attributes, their own relationships, at most `maxDepth` levels deep). They travel
///   in the record's `embedded` list, in order, each with a key of its own
///   (`EmbeddedRecord.key(at:)`), and the record links to them by that key, so that the writer
///   finds or creates them (see `StoreGraphWriter.write(_:schema:namespace:embedded:)`). A nested
///   object that cannot be decoded rejects the whole record, located by its key path
///   (`tasks.json:12 attachments[1].remotePath`).
/// - One array holds objects or values, not both: a mixed array rejects the record, since an
///   object and a value stand for different things (a record to make, a record to find).
///
/// Keys that match nothing are collected once each in `unknownKeys` (a nested object's as
/// `relationship.key`). An object that holds a key more than once rejects its record
/// (`RepeatedKeys`): which of the values is meant cannot be told. The model defaults that records
/// took for keys they lacked are counted in `absentDefaults`.
public struct DocumentRecordDecoder {
    public let schema: RecordSchema
    private let model: ManagedObjectModel
    private let matcher: PropertyKeyMatcher
    private var assembler: RecordAssembler
    private var relationshipKeys: RelationshipKeys
    private let options: CoercionOptions
    /// How deep nested objects go: 1 allows objects inside a record, not inside those.
    public let maxDepth: Int
    /// Each attribute's type, by schema index (read per value without copying the attribute).
    private let types: [AttributeType]
    private var keyTargets: [String: KeyTarget] = [:]
    /// The relationships keys were found to name, in the order found.
    private var keyRelationships: [Relationship] = []
    /// The previous object's keys and their targets, in its order: objects of one document
    /// usually list the same keys in the same order, and comparing a key is cheaper than hashing it.
    private var recentKeys: [String] = []
    private var recentTargets: [KeyTarget] = []
    /// Decoders of nested objects, by destination entity.
    private var nested: [String: DocumentRecordDecoder] = [:]
    public private(set) var unknownKeys: [String] = []
    /// Whether the records carry `Z_PK` unmapped (`RelationshipKeys.storeKeysReason`).
    private var carriesStoreKeys = false
    /// The keys of the last object checked that held no key twice: an object with the same keys
    /// in the same order needs no other check (objects of one document usually have them).
    private var distinctKeys: [String] = []
    /// Whether any key met so far matched an attribute or relationship.
    public private(set) var matchesAnyKey = false
    /// The last record object of plain values decoded the general way, for `decodeFields`.
    private(set) var plainShape: PlainObjectShape?

    private enum KeyTarget {
        case attribute(Int)
        /// An index into `keyRelationships` (so that a target is copied without reference counting).
        case relationship(Int)
        case unknown
    }

    /// - Parameters:
    ///   - linkAttributes: relationship name → the destination attribute its values match.
    ///   - maxDepth: how many levels of nested objects a record may hold.
    public init(schema: RecordSchema, model: ManagedObjectModel, keyMap: [String: String] = [:],
                linkAttributes: [String: String] = [:], options: CoercionOptions = .init(), maxDepth: Int = 8) throws(RecordSourceError) {
        self.schema = schema
        self.model = model
        types = schema.attributes.map(\.type)
        matcher = PropertyKeyMatcher(schema: schema, keyMap: keyMap)
        do { assembler = try RecordAssembler(schema: schema, absent: options.absentKey) } catch {
            throw RecordSourceError(source: schema.entity.name, reason: error.description)
        }
        relationshipKeys = RelationshipKeys(model: model, entity: schema.entity.name, keyMap: keyMap, linkAttributes: linkAttributes)
        self.options = options
        self.maxDepth = maxDepth
    }

    /// Decodes one record of a document: it must be an object (`container` names what the format
    /// calls one, for the reject: "a JSON object", "a dictionary").
    public mutating func decodeRecord(_ value: DocumentValue, at location: SourceLocation, container: String)
        throws(RecordSourceError) -> RecordReadResult
    {
        guard case let .object(members) = value else {
            return .reject(Reject(location: location, entity: schema.entity.name,
                                  reason: "a record must be \(container), not \(value.kindName)"))
        }
        return try decode(members, at: location)
    }

    /// Decodes one record of a JSON document read as fields, as `decodeRecord` decodes its value.
    ///
    /// An object with the keys of the last object of plain values decoded, in the same order and
    /// all plain (`PlainObjectShape`), is decoded straight from its fields: its values are coerced
    /// from their bytes where `TextCoercion.value(utf8:as:)` takes them, and otherwise as their
    /// document values are. Other records are decoded as their document value.
    public mutating func decodeFields(_ fields: JSONRecordFields, at location: SourceLocation) throws(RecordSourceError) -> RecordReadResult {
        if let shape = plainShape, shape.matches(fields) { return decodePlain(fields, shape: shape, at: location) }
        let value = DocumentValue(fields)
        let result = try decodeRecord(value, at: location, container: "a JSON object")
        // A rejected record may not have had all its keys checked (two keys feeding one attribute).
        if case .record = result { notePlainShape(of: value) }
        return result
    }

    /// Decodes an object of `shape`: its keys' targets are known, and none is a relationship.
    private mutating func decodePlain(_ fields: JSONRecordFields, shape: PlainObjectShape, at location: SourceLocation) -> RecordReadResult {
        var values = [AttributeValue].nulls(count: schema.attributes.count)
        var provided = [Bool](repeating: false, count: schema.attributes.count)
        for (member, attribute) in shape.attributes.enumerated() {
            guard let index = attribute else { continue }
            provided[index] = true
            switch coerce(fields, member: member, as: types[index]) {
            case .success(let converted):
                values[index] = converted
            case .failure(let failure):
                let name = schema.attributes[index].name
                return .reject(Reject(location: location, entity: schema.entity.name, attribute: name,
                                      value: Self.sample(DocumentValue(fields.value(at: member))), reason: failure.reason))
            }
        }
        return completed(values, provided: provided, links: [], embedded: [], defaulted: 0, at: location, depth: 0)
    }

    /// The value of a plain member for an attribute of `type`: a string's text for a String, else
    /// straight from its bytes where the byte entry of `TextCoercion` takes it (the same value the
    /// text gives), else as `DocumentCoercion` makes it.
    private func coerce(_ fields: JSONRecordFields, member: Int, as type: AttributeType) -> Result<AttributeValue, CoercionFailure> {
        let fromBytes: AttributeValue?
        switch fields.kind(at: member) {
        case .string where type == .string:
            fromBytes = .string(fields.withValue(at: member) { String(decoding: $0, as: UTF8.self) })
        case .string:
            fromBytes = fields.withValue(at: member) { TextCoercion.value(utf8: $0, as: type) }
        case .number(isInteger: true):
            // Only for an integer attribute: a number's other rules are `DocumentCoercion`'s (0 and 1 for a Boolean).
            fromBytes = type.isInteger ? fields.withValue(at: member) { TextCoercion.value(utf8: $0, as: type) } : nil
        default:
            fromBytes = nil
        }
        return fromBytes.map { .success($0) } ?? DocumentCoercion.value(DocumentValue(fields.value(at: member)), as: type, options: options)
    }

    /// Keeps the shape of a record object just decoded into a record when each of its keys appears
    /// once, holds a plain value and was matched to an attribute (each a different one) or to nothing.
    private mutating func notePlainShape(of record: DocumentValue) {
        guard case .object(let members) = record, Set(members.map(\.key)).count == members.count else { return }
        var attributes: [Int?] = []
        for (key, value) in members {
            switch value {
            case .null, .bool, .number, .string: break
            default: return
            }
            switch keyTargets[key] {
            case .attribute(let index): attributes.append(index)
            case .unknown: attributes.append(nil)
            case .relationship, nil: return
            }
        }
        let named = attributes.compactMap { $0 }
        guard Set(named).count == named.count else { return }
        plainShape = PlainObjectShape(keys: members.map(\.key), attributes: attributes)
    }

    /// Decodes one document object found at `location`.
    public mutating func decode(_ members: [(key: String, value: DocumentValue)], at location: SourceLocation)
        throws(RecordSourceError) -> RecordReadResult
    {
        try decode(members, at: location, depth: 0)
    }

    /// The attributes whose model default records (and their nested objects) took for want of
    /// their key, with how many did.
    public var absentDefaults: [AbsentDefault] {
        assembler.absentDefaults + nested.sorted { $0.key < $1.key }.flatMap(\.value.absentDefaults)
    }

    /// Decodes an object `depth` levels down from its document record; the rejects of nested
    /// objects (`depth > 0`) name the attribute in the location's key path. `backLink` is a
    /// nested object's relationship to its carrier (the inverse of the one it is nested in),
    /// whose destinations the carrier adds to.
    private mutating func decode(_ members: [(key: String, value: DocumentValue)], at location: SourceLocation, depth: Int,
                                 backLink: String? = nil) throws(RecordSourceError) -> RecordReadResult
    {
        let entity = schema.entity.name
        // Such a record is a reject; its keys are still matched, so that the source's are known.
        let repeated = repeatedKey(in: members)
        func at(_ attribute: String) -> SourceLocation { Self.location(location, of: attribute, depth: depth) }
        var values = [AttributeValue].nulls(count: schema.attributes.count)
        var provided = [Bool](repeating: false, count: schema.attributes.count)
        var links: [RecordLink] = []
        var embedded: [EmbeddedRecord] = []
        var defaultedTotal = 0
        for (position, (key, value)) in members.enumerated() {
            let target: KeyTarget
            do { target = try self.target(for: key, at: position) } catch {
                throw RecordSourceError(source: location.file, line: location.line, reason: error.reason)
            }
            if repeated != nil { continue }
            switch target {
            case .unknown:
                continue
            case .attribute(let index):
                if provided[index] {
                    throw RecordSourceError(source: location.file, line: location.line, reason: "two keys of one object feed attribute "
                        + "'\(schema.attributes[index].name)' (the second is '\(key)'\(location.path.map { ", in \($0)" } ?? "")): "
                        + "one of the values would be lost; name each key's attribute with --map KEY=ATTRIBUTE")
                }
                provided[index] = true
                switch DocumentCoercion.value(value, as: types[index], options: options) {
                case .success(let converted):
                    values[index] = converted
                case .failure(let failure):
                    let name = schema.attributes[index].name
                    return .reject(Reject(location: at(name), entity: entity, attribute: name,
                                          value: Self.sample(value), reason: failure.reason))
                }
            case .relationship(let found):
                let relationship = keyRelationships[found]
                let items: [DocumentValue]
                let isArray: Bool
                switch value {
                case .null: (items, isArray) = ([], false)
                case .array(let elements): (items, isArray) = (elements, true)
                default: (items, isArray) = ([value], false)
                }
                // A null in a list names no object: dropping it would lose what the list said
                // without a word (a null for the whole relationship is an empty one).
                if isArray, let position = items.firstIndex(of: .null) {
                    return .reject(Reject(location: at(relationship.name), entity: entity, attribute: relationship.name, value: "null",
                                          reason: "\(relationship.name)[\(position)] is null: a list holds \(relationship.destinationEntity) objects or values that find one"))
                }
                let objects = items.filter { if case .object = $0 { true } else { false } }.count
                let targets: [RecordLink.Target]
                if objects == 0, carriesStoreKeys, !items.isEmpty {
                    throw RecordSourceError(source: location.file, line: location.line,
                                            reason: RelationshipKeys.storeKeysReason(relationships: [relationship.name]))
                }
                // Values no record could be found by: each is a destination of its own, holding it.
                let holder = objects == 0 && !items.isEmpty ? relationshipKeys.valueHolder(for: relationship) : nil
                if objects == 0, holder == nil {
                    switch try matchTargets(items, relationship: relationship, source: location.file) {
                    case .targets(let found): targets = found
                    case let .failure(value, reason):
                        return .reject(Reject(location: at(relationship.name), entity: entity, attribute: relationship.name,
                                              value: value, reason: reason))
                    }
                } else if holder == nil, objects < items.count {
                    return .reject(Reject(location: at(relationship.name), entity: entity, attribute: relationship.name,
                                          reason: "an array lists either \(relationship.destinationEntity) objects or values that find one, not both"))
                } else {
                    var made: [RecordLink.Target] = []
                    for (index, item) in items.enumerated() {
                        let inner: [(key: String, value: DocumentValue)]
                        if case let .object(members) = item { inner = members } else if let holder { inner = [(holder.name, item)] } else { continue }
                        let path = isArray ? "\(relationship.name)[\(index)]" : relationship.name
                        let nestedLocation = Self.location(location, appending: depth == 0 && location.path == nil ? path : ".\(path)")
                        switch try decodeNested(inner, relationship: relationship, at: nestedLocation, depth: depth + 1) {
                        case .reject(let reject):
                            return .reject(reject)
                        case let .record(record, defaulted):
                            defaultedTotal += defaulted
                            let reference = nested[relationship.destinationEntity]?.givesOnlyUniqueValues(inner) ?? false
                            embedded.append(EmbeddedRecord(entity: relationship.destinationEntity, record: record, onlyNamesItsRecord: reference))
                            if let key = record.key { made.append(.key(key)) }
                        }
                    }
                    targets = made
                }
                // A top-level record that says it has no destination for a required to-one could
                // only fail verification and take the whole run with it: it is rejected here, with
                // its location. (A nested object's carrier links it, whatever its own key says.)
                if depth == 0, relationship.isRequiredToOne, targets.isEmpty {
                    return .reject(Reject(location: at(relationship.name), entity: entity, attribute: relationship.name,
                                          reason: RelationshipKeys.emptyRequiredReason))
                }
                // So is one that lists a to-many's destinations outside its count (a nested
                // object rejects its carrier), except the list its carrier adds itself to.
                if relationship.name != backLink, let problem = RelationshipKeys.countProblem(of: relationship, targets: targets) {
                    return .reject(Reject(location: at(relationship.name), entity: entity, attribute: relationship.name, reason: problem))
                }
                if !relationship.isToMany, targets.count > 1 {
                    return .reject(Reject(location: at(relationship.name), entity: entity, attribute: relationship.name,
                                          reason: "a to-one relationship takes one value, not \(targets.count)"))
                }
                links.append(RecordLink(relationship: relationship.name, targets: targets))
            }
        }
        if let repeated { return .reject(RepeatedKeys.reject(keys: [repeated], at: location, entity: entity, container: "object")) }
        return completed(values, provided: provided, links: links, embedded: embedded, defaulted: defaultedTotal, at: location, depth: depth)
    }

    /// The record of an object's values and links, with its defaults filled in, or the reject of
    /// a required attribute it leaves empty. `defaulted` counts the defaults of its nested objects.
    private mutating func completed(_ values: [AttributeValue], provided: [Bool], links: [RecordLink], embedded: [EmbeddedRecord], defaulted: Int,
                           at location: SourceLocation, depth: Int) -> RecordReadResult
    {
        switch assembler.complete(values, provided: provided) {
        case let .record(values, filled):
            return .record(Record(values: values, location: location, links: links, embedded: embedded), defaulted: filled + defaulted)
        case let .missingRequired(attribute):
            return .reject(Reject(location: Self.location(location, of: attribute, depth: depth), entity: schema.entity.name, attribute: attribute,
                                  reason: provided[schema.index(of: attribute) ?? 0] ? "required attribute is null and has no default"
                                                                                   : "required attribute is missing and has no default"))
        }
    }

    /// The links of a relationship's values, or the value that is not one and why.
    private enum MatchTargets {
        case targets([RecordLink.Target])
        case failure(value: String, reason: String)
    }

    /// The match targets of a relationship's values (none null), or what is wrong with one.
    private mutating func matchTargets(_ items: [DocumentValue], relationship: Relationship, source: String)
        throws(RecordSourceError) -> MatchTargets
    {
        var targets: [RecordLink.Target] = []
        for item in items {
            let matchAttribute = try relationshipKeys.matchAttribute(for: relationship, source: source)
            switch DocumentCoercion.value(item, as: matchAttribute.type, options: options) {
            case .success(let converted): targets.append(.match(attribute: matchAttribute.name, value: converted))
            case .failure(let failure):
                return .failure(value: Self.sample(item), reason: "\(relationship.destinationEntity).\(matchAttribute.name): \(failure.reason)")
            }
        }
        return .targets(targets)
    }

    /// Decodes a nested object as a record of the relationship's destination, keyed by its location.
    private mutating func decodeNested(_ members: [(key: String, value: DocumentValue)], relationship: Relationship,
                                       at location: SourceLocation, depth: Int) throws(RecordSourceError) -> RecordReadResult
    {
        let destination = relationship.destinationEntity
        guard depth <= maxDepth else {
            return .reject(Reject(location: location, entity: destination,
                                  reason: "nested objects go at most \(maxDepth) level\(maxDepth == 1 ? "" : "s") deep"))
        }
        var decoder: DocumentRecordDecoder
        if let known = nested[destination] {
            decoder = known
        } else {
            guard let schema = RecordSchema(model: model, entityName: destination) else {
                throw RecordSourceError(source: location.file, reason: "relationship '\(relationship.name)' leads to an unknown entity \(destination)")
            }
            decoder = try DocumentRecordDecoder(schema: schema, model: model, keyMap: [:], linkAttributes: relationshipKeys.linkAttributes,
                                                options: options, maxDepth: maxDepth)
        }
        if decoder.schema.entity.isAbstract {
            return .reject(Reject(location: location, entity: destination,
                                  reason: "\(destination) is abstract: a nested object cannot be one"))
        }
        nested[destination] = nil
        let known = decoder.unknownKeys.count
        var result = try decoder.decode(members, at: location, depth: depth, backLink: model.inverse(of: relationship)?.name)
        unknownKeys += decoder.unknownKeys[known...].map { "\(relationship.name).\($0)" }
        nested[destination] = decoder
        if case .record(var record, let defaulted) = result {
            record.key = EmbeddedRecord.key(at: location)
            result = .record(record, defaulted: defaulted)
        }
        return result
    }

    /// Whether an object of this decoder's entity gives at least one attribute, all of them in its
    /// uniqueness constraints, and no relationship: it names a record rather than describing one.
    /// The object was decoded as a record first, so each of its keys' targets is known.
    func givesOnlyUniqueValues(_ members: [(key: String, value: DocumentValue)]) -> Bool {
        let unique = Set(model.ancestry(of: schema.entity.name).flatMap(\.uniquenessConstraints).flatMap { $0 })
        var gives = false
        for (key, _) in members {
            switch keyTargets[key] ?? .unknown {
            case .unknown: continue
            case .relationship: return false
            case .attribute(let index):
                guard unique.contains(schema.attributes[index].name) else { return false }
                gives = true
            }
        }
        return gives
    }

    /// A key that `members` holds more than once, if any.
    private mutating func repeatedKey(in members: [(key: String, value: DocumentValue)]) -> String? {
        if members.count == distinctKeys.count, zip(members, distinctKeys).allSatisfy({ $0.key == $1 }) { return nil }
        if let repeated = RepeatedKeys.first(among: members) { return repeated }
        distinctKeys = members.map(\.key)
        return nil
    }

    /// Where an attribute of an object `depth` levels down from its record at `location` is: a
    /// nested object's attribute is named in the key path.
    private static func location(_ location: SourceLocation, of attribute: String, depth: Int) -> SourceLocation {
        depth == 0 ? location : Self.location(location, appending: ".\(attribute)")
    }

    private static func location(_ location: SourceLocation, appending step: String) -> SourceLocation {
        var result = location
        result.path = (location.path ?? "") + step
        return result
    }

    /// The target of the key at `position` of an object: the previous object's when it had the
    /// same key there.
    private mutating func target(for key: String, at position: Int) throws(AmbiguousKey) -> KeyTarget {
        if position < recentKeys.count, recentKeys[position] == key { return recentTargets[position] }
        let found = try target(for: key)
        if position < recentKeys.count {
            recentKeys[position] = key
            recentTargets[position] = found
        } else if position == recentKeys.count {
            recentKeys.append(key)
            recentTargets.append(found)
        }
        return found
    }

    private mutating func target(for key: String) throws(AmbiguousKey) -> KeyTarget {
        if let known = keyTargets[key] { return known }
        let resolved: KeyTarget
        // Rows of a store (a Ferry export) carry Z_PK, and their relationship numbers are its
        // keys: unless the user mapped Z_PK, also when it reaches an attribute by its name or
        // renaming identifier (`ferry model infer` of an export made one).
        if RelationshipKeys.isStoreRowKey(key) {
            // Their NULLs are keys left out (a plist has none), also when Z_PK is mapped.
            assembler.readsStoreRows()
            if !matcher.isMapped(key) { carriesStoreKeys = true }
        }
        if let index = try matcher.attributeIndex(forKey: key) {
            resolved = .attribute(index)
            matchesAnyKey = true
        } else if let relationship = relationshipKeys.relationship(forKey: key) {
            keyRelationships.append(relationship)
            resolved = .relationship(keyRelationships.count - 1)
            matchesAnyKey = true
        } else {
            resolved = .unknown
            unknownKeys.append(key)
        }
        keyTargets[key] = resolved
        return resolved
    }

    /// Why a document that is one object (its root) is taken for a container of records rather
    /// than one record: a key that matches no attribute or relationship holds a non-empty array
    /// of objects (`{"exportedAt": …, "records": [{…}, {…}]}`), which read as one record would
    /// write the envelope and drop the records. Nil when no key does.
    public func containerProblem(of root: DocumentValue, remedy: String) -> String? {
        guard case .object(let members) = root else { return nil }
        for (key, value) in members {
            guard case .array(let items) = value, !items.isEmpty, !matches(key),
                  items.allSatisfy({ if case .object = $0 { true } else { false } }) else { continue }
            return "the document is one object whose key '\(key)', which no attribute or relationship of \(schema.entity.name) "
                + "matches, holds \(items.count) object\(items.count == 1 ? "" : "s"): it looks like a container of records, not one record (\(remedy))"
        }
        return nil
    }

    /// Whether `key` names an attribute or relationship, as `target(for:)` resolves it.
    private func matches(_ key: String) -> Bool {
        if let known = keyTargets[key] {
            if case .unknown = known { return false }
            return true
        }
        let attribute: Bool
        // A key that names several attributes names attributes too (and is refused when read).
        do { attribute = try matcher.attributeIndex(forKey: key) != nil } catch { attribute = true }
        return attribute || relationshipKeys.relationship(forKey: key) != nil
    }

    private static func sample(_ value: DocumentValue) -> String {
        switch value {
        case .string(let text), .number(let text): TextCoercion.clipped(text)
        case .bool(let flag): flag ? "true" : "false"
        default: value.kindName
        }
    }
}
