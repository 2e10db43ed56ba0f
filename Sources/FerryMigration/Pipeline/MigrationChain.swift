import FerryFormats
import FerryModel

/// The versions of a model records go through, in order, and the mapping of each step, with
/// the schemas, routes and compiled transforms made on first use.
///
/// Records of each version take one way to the last version: the step from their version, then
/// the step from the version it leads to, and so on. The ways of two versions may part (a store
/// of `V1` goes straight to `V3`, keeping an attribute `V2` lacks, while a file of `V2` goes
/// `V2` → `V3`) and, once they meet, go on together: every run writes one store of the last
/// version.
public final class MigrationChain {
    public let versions: [ManagedObjectModel]
    /// `steps[i]` takes records of `versions[i]` to `versions[destinations[i]]`.
    public let steps: [MappingModel]
    /// The index of the version each step leads to, a later one.
    public let destinations: [Int]
    private let options: CoercionOptions
    private let variables: [String: String]
    private var schemas: [VersionEntity: RecordSchema] = [:]
    private var transforms: [StepMapping: EntityTransform] = [:]
    private var routes: [VersionEntity: Route] = [:]

    /// An entity of one version (or of the source side of one step).
    private struct VersionEntity: Hashable {
        let version: Int
        let entity: String
    }

    /// One entity mapping of one step (a source entity may have two: `MappingModel.branches`).
    private struct StepMapping: Hashable {
        let step: Int
        let source: String
        let destination: String
    }

    /// What became of a record carried to the last version.
    public enum Outcome {
        /// `made`: the records mappings made from its values on the way, each with the index of
        /// the version it was made in (the destination of its step), still to be carried from there.
        case record(Record, entity: String, converted: Int, made: [(version: Int, record: EmbeddedRecord)])
        case reject(Reject)
        /// Filtered out by a mapping's filter, or dropped with its entity by a step (removed from
        /// the model, or a written `drop`). A record no mapping takes otherwise is a reject.
        case filtered
    }

    /// The way of one source entity of one version through every later step: its entity
    /// mappings in order, each step's transform compiled when the first record reaches it.
    public final class Route {
        /// The versions of the way records take from the one they start in to the last
        /// (`MigrationChain.stops(from:)`): `mappings[i]` takes them from `stops[i]` to `stops[i + 1]`.
        public let stops: [Int]
        /// The entity mapping of each step from the first version.
        public let mappings: [EntityMapping]
        /// Per step of `mappings`, the further mappings that make records of their own from the
        /// step's input record (`MappingModel.branches`).
        public let branches: [[EntityMapping]]
        fileprivate var transforms: [EntityTransform?]
        /// The entity records become in the last version; nil when a step has no mapping for
        /// the entity, so that records reaching that step are filtered.
        public let finalEntity: String?
        /// Why records reaching the step after `mappings` cannot cross it (a mapping model's
        /// entity mapping Ferry refused); they stop the migration.
        public let refusal: MappingError?
        /// The entity and the reason when no entity mapping of the step after `mappings` takes
        /// the records and the step does not drop their entity (it became abstract): each
        /// record reaching it is rejected, never counted as filtered.
        public let unmapped: (entity: String, reason: String)?

        fileprivate init(stops: [Int], mappings: [EntityMapping], branches: [[EntityMapping]], finalEntity: String?, refusal: MappingError?,
                         unmapped: (entity: String, reason: String)?) {
            self.stops = stops
            self.mappings = mappings
            self.branches = branches
            self.finalEntity = finalEntity
            self.refusal = refusal
            self.unmapped = unmapped
            transforms = Array(repeating: nil, count: mappings.count)
        }
    }

    /// - Parameter destinations: the version each of `steps` leads to; nil: the next one.
    public init(versions: [ManagedObjectModel], steps: [MappingModel], destinations: [Int]? = nil, options: CoercionOptions,
                variables: [String: String]) {
        self.versions = versions
        self.steps = steps
        self.destinations = destinations ?? steps.indices.map { $0 + 1 }
        self.options = options
        self.variables = variables
    }

    public var last: ManagedObjectModel { versions[versions.count - 1] }

    /// The versions records of version `from` go through, from it to the last.
    public func stops(from: Int) -> [Int] {
        var stops = [from]
        while let at = stops.last, at < steps.count { stops.append(destinations[at]) }
        return stops
    }

    /// The ways records take, by their versions' names, oldest first: one from each version no
    /// step leads to (the way of a version another's way goes through is the end of that one).
    public var chains: [[String]] {
        versions.indices.filter { !destinations.contains($0) }.map { stops(from: $0).map { versions[$0].name } }
    }

    /// The values of source attributes that a step carries nowhere (the next version has no
    /// attribute they become), counted as the records went through: dropped on purpose, as Core
    /// Data drops them, and named, so a migration never drops values in silence. The steps of two
    /// ways that drop an attribute of one name into one version are one line, their counts added
    /// (they were two lines alike but for the count).
    public var uncarriedValues: [SourceNote] {
        var counted: [(entity: String, attribute: String, nextVersion: String, values: Int)] = []
        for (key, transform) in transforms.sorted(by: { ($0.key.step, $0.key.source, $0.key.destination) < ($1.key.step, $1.key.source, $1.key.destination) }) {
            let nextVersion = versions[destinations[key.step]].name
            for (attribute, values) in transform.uncarriedCounts {
                if let same = counted.firstIndex(where: { $0.entity == key.source && $0.attribute == attribute && $0.nextVersion == nextVersion }) {
                    counted[same].values += values
                } else {
                    counted.append((key.source, attribute, nextVersion, values))
                }
            }
        }
        return counted.map { .droppedValues(count: $0.values, entity: $0.entity, attribute: $0.attribute, nextVersion: $0.nextVersion) }
    }

    /// What the mappings' notes (`note "TEXT" if CONDITION`) counted, one line each: the source
    /// entity, the note, how many records and where the first were read.
    public var notedRecords: [String] {
        transforms.sorted { ($0.key.step, $0.key.source, $0.key.destination) < ($1.key.step, $1.key.source, $1.key.destination) }
            .flatMap { key, transform in
                transform.notedRecords.map { note, tally in
                    let more = tally.records > tally.samples.count ? ", …" : ""
                    return "\(key.source): \(note): \(tally.records) record\(tally.records == 1 ? "" : "s") "
                        + "(\(tally.samples.joined(separator: ", "))\(more))"
                }
            }
    }

    /// Checks the run-time variables given against every written expression of the chain before
    /// any record is read (a transform is made when its first record comes, and a time zone that
    /// names none rejected each record in turn): each one that gives `date()` its zone names one.
    /// A variable not given fails when a record needs it (a run whose sources hold no task needs
    /// no zone for tasks).
    /// - Returns: warnings for the variables given that no expression reads (`--var zon=UTC`).
    public func checkVariables() throws(MappingError) -> [String] {
        var read: Set<String> = []
        for step in steps {
            for mapping in step.entities + step.branches {
                let expressions = mapping.attributes.compactMap { attribute -> (String, MappingExpression)? in
                    guard case .expression(let expression) = attribute.rule else { return nil }
                    return ("\(mapping.destination).\(attribute.destination)", expression)
                } + mapping.madeRecords.flatMap { rule in rule.expressions.map { ("\(rule.location): \(rule)", $0) } }
                for (place, expression) in expressions {
                    read.formUnion(expression.referencedVariables)
                    if let problem = expression.variableProblem(variables, allGiven: false) {
                        throw .model("\(step.sourceVersion) → \(step.destinationVersion): \(place) \(problem)")
                    }
                }
            }
        }
        return variables.keys.sorted().filter { !read.contains($0) }.map { name in
            "--var \(name)=…: no mapping reads $\(name)" + NameSuggestion.hint(for: name, among: read.sorted(), quote: { "$\($0)" })
        }
    }

    public func schema(version: Int, entity: String) -> RecordSchema? {
        let key = VersionEntity(version: version, entity: entity)
        if let known = schemas[key] { return known }
        guard let made = RecordSchema(model: versions[version], entityName: entity) else { return nil }
        schemas[key] = made
        return made
    }

    /// The route of records of `entity` in version `from` (made once per entity and version).
    public func route(entity: String, from: Int) -> Route {
        let key = VersionEntity(version: from, entity: entity)
        if let known = routes[key] { return known }
        var mappings: [EntityMapping] = []
        var branches: [[EntityMapping]] = []
        var name = entity
        var complete = true
        var refusal: MappingError?
        var unmapped: (entity: String, reason: String)?
        let stops = stops(from: from)
        for step in stops.dropLast() {
            refusal = steps[step].refusal(forSource: name)?.error
            guard refusal == nil, let mapping = steps[step].mapping(forSource: name) else {
                complete = false
                if refusal == nil, !steps[step].droppedEntities.contains(name) {
                    unmapped = (name, steps[step].unmappedReason(forSource: name))
                }
                break
            }
            mappings.append(mapping)
            branches.append(steps[step].branches(forSource: name))
            name = mapping.destination
        }
        let made = Route(stops: stops, mappings: mappings, branches: branches, finalEntity: complete ? name : nil, refusal: refusal,
                         unmapped: unmapped)
        routes[key] = made
        return made
    }

    /// Takes a record through every step of its route. Records a step makes from its values, and
    /// the records a step's further mappings (`Route.branches`) make from the same input, are
    /// returned with the record, not carried further here: the caller carries each by the route
    /// of its own entity from the version it was made in. A record that reaches a step whose
    /// mapping Ferry refused stops the migration with the refusal.
    public func carry(_ record: Record, route: Route) throws(MappingError) -> Outcome {
        var current = record
        var converted = 0
        var made: [(version: Int, record: EmbeddedRecord)] = []
        for index in route.mappings.indices {
            let transform: EntityTransform
            if let compiled = route.transforms[index] {
                transform = compiled
            } else {
                transform = try self.transform(step: route.stops[index], mapping: route.mappings[index])
                route.transforms[index] = transform
            }
            let input = current
            switch transform.apply(input) {
            case let .record(next, count):
                current = next
                converted += count
                made += next.embedded.map { (route.stops[index + 1], $0) }
                current.embedded = []
            case .reject(let reject):
                return .reject(reject)
            case .filtered:
                return .filtered
            }
            for branch in route.branches[index] {
                switch try self.transform(step: route.stops[index], mapping: branch).apply(input) {
                case let .record(other, count):
                    converted += count
                    made += other.embedded.map { (route.stops[index + 1], $0) }
                    var own = other
                    own.embedded = []
                    made.append((route.stops[index + 1], EmbeddedRecord(entity: branch.destination, record: own)))
                case .reject(let reject):
                    return .reject(reject)
                case .filtered:
                    continue
                }
            }
        }
        if let refusal = route.refusal { throw refusal }
        guard let entity = route.finalEntity else {
            guard let unmapped = route.unmapped else { return .filtered }
            return .reject(Reject(location: current.location, entity: unmapped.entity, reason: unmapped.reason))
        }
        return .record(current, entity: entity, converted: converted, made: made)
    }

    /// The entity and relationship a relationship of `entity` in version `from` becomes in the
    /// last version, or nil when a step drops it.
    ///
    /// An abstract entity has no mapping of its own: its relationship becomes what its concrete
    /// entities carry it to, named by the entity that declares it in the last version. When they
    /// carry it to different relationships, or none does, it is dropped.
    public func finalRelationship(_ relationship: String, of entity: String, from: Int) -> (entity: String, relationship: String)? {
        var names = (entity: entity, relationship: relationship)
        for step in stops(from: from).dropLast() {
            guard let mapping = steps[step].mapping(forSource: names.entity) else {
                return finalRelationship(names.relationship, ofAbstract: names.entity, from: step)
            }
            guard let carried = mapping.relationships.first(where: { $0.source == names.relationship }) else { return nil }
            names = (mapping.destination, carried.destination)
        }
        return names
    }

    /// Why the last version cannot hold the pairs of `relationship` of `entity` (version `from`)
    /// that lead to records of `destination` (a concrete entity): the relationship becomes none
    /// there, or `destination`'s records become an entity that what it becomes does not lead to
    /// (a sub-entity moved under another parent). Nil when the pairs are held, and when the
    /// records of either end are not carried (the pairs are dropped with them).
    public func unheldPairs(_ relationship: String, of entity: String, to destination: String, from: Int) -> String? {
        guard route(entity: entity, from: from).finalEntity != nil, let target = route(entity: destination, from: from).finalEntity else {
            return nil
        }
        guard let carried = finalRelationship(relationship, of: entity, from: from),
              let becomes = last.allRelationships(of: carried.entity).first(where: { $0.name == carried.relationship }) else {
            return "\(last.name) has no relationship they become"
        }
        guard !last.hierarchy(below: becomes.destinationEntity).contains(where: { $0.name == target }) else { return nil }
        return "\(last.name)'s \(carried.entity).\(carried.relationship) leads to \(becomes.destinationEntity) only, and \(target) is not one there"
    }

    /// The relationships of `final` (an entity of the last version) that need a destination (a
    /// required to-one, a to-many with a minimum count) and that nothing fills for the records
    /// of `entity` read in version `from`: no relationship of theirs becomes it, no rule of any
    /// step makes records for a relationship of its name (made records, a mapping model's links
    /// to what another mapping makes), and its inverse is
    /// what no relationship of the run's `sources` (entity names by version) becomes. Core Data
    /// refuses to save such an object (a relationship new in the last version, to an entity no
    /// record flows into). A conservative reading: anything that might fill it leaves it out.
    public func unfilledRequired(of final: String, for entity: String, from version: Int, sources: [Int: Set<String>]) -> [String] {
        let own = Set(versions[version].allRelationships(of: entity).compactMap { relationship in
            finalRelationship(relationship.name, of: entity, from: version).flatMap { $0.entity == final ? $0.relationship : nil }
        })
        let written = Set(steps.flatMap { step in
            (step.entities + step.branches).flatMap { $0.sourceRecordLinks + $0.madeRecords.map(\.relationship) }
        })
        return last.allRelationships(of: final).filter { required in
            guard required.minimumDestinations > 0, !own.contains(required.name), !written.contains(required.name) else { return false }
            guard let inverse = required.inverseName else { return true }
            let holders = Set(last.hierarchy(below: required.destinationEntity).map(\.name))
            return !sources.contains { version, entities in
                entities.contains { source in
                    versions[version].allRelationships(of: source).contains { relationship in
                        guard let image = finalRelationship(relationship.name, of: source, from: version) else { return false }
                        return image.relationship == inverse && holders.contains(image.entity)
                    }
                }
            }
        }.map(\.name)
    }

    /// `finalRelationship` of an abstract entity's relationship: where each of its concrete
    /// entities carries it, when they agree.
    private func finalRelationship(_ relationship: String, ofAbstract entity: String, from: Int) -> (entity: String, relationship: String)? {
        let model = versions[from]
        guard model.entity(named: entity)?.isAbstract == true else { return nil }
        var agreed: (entity: String, relationship: String)?
        for concrete in model.hierarchy(below: entity) where !concrete.isAbstract {
            guard let final = finalRelationship(relationship, of: concrete.name, from: from) else { continue }
            let declaring = last.declaringEntity(ofProperty: final.relationship, in: final.entity)?.name ?? final.entity
            if let agreed, agreed != (declaring, final.relationship) { return nil }
            agreed = (declaring, final.relationship)
        }
        return agreed
    }

    /// The one-to-ones of `entity` in version `from` whose two sides records of that version
    /// bring along, each from its own column, into a one-to-one of the last version: its inverse
    /// there is what the source's inverse becomes (unchanged or renamed). Named as the last
    /// version names them. A relationship that had no to-one inverse in `from` is not one: its
    /// source holds one side only, and the other is filled from it.
    public func oneToOnesCarriedSideBySide(of entity: String, from: Int) -> Set<String> {
        let model = versions[from]
        var carried = Set<String>()
        for relationship in model.allRelationships(of: entity) where !relationship.isToMany && !relationship.isTransient {
            guard model.inverse(of: relationship)?.isToMany == false,
                  let kept = keptInverses(relationship, of: entity, from: from), !kept.becomes.isToMany, !kept.inverse.isToMany else { continue }
            carried.insert(kept.becomes.name)
        }
        return carried
    }

    /// Whether what `relationship` of `entity` in version `from` becomes in the last version has
    /// a to-one inverse there, while in `from` its inverse is a to-many or none (`Owner.pets` ⇄
    /// `Pet.owner` become `Owner.pet` ⇄ `Pet.owner`): records of `from` may name one destination
    /// through it several times, which the last version cannot hold (`LinkKind.inverseWasToMany`).
    public func inverseBecomesToOne(_ relationship: Relationship, of entity: String, from: Int) -> Bool {
        guard versions[from].inverse(of: relationship)?.isToMany != false,
              let carried = finalRelationship(relationship.name, of: entity, from: from),
              let becomes = last.allRelationships(of: carried.entity).first(where: { $0.name == carried.relationship }) else { return false }
        return last.inverse(of: becomes)?.isToMany == false
    }

    /// What the version `from` says of the other sides of the relationships of `entity`'s records,
    /// by the last version's names (`StoreGraphWriter.write`'s `sides`): the one-to-ones carried
    /// side by side when `keepsOneToOneSides` (`oneToOnesCarriedSideBySide`), and those whose
    /// inverse becomes a to-one (`inverseBecomesToOne`).
    public func linkSides(of entity: String, from: Int, keepsOneToOneSides: Bool) -> LinkSides {
        let narrowing = versions[from].allRelationships(of: entity).filter { !$0.isTransient && inverseBecomesToOne($0, of: entity, from: from) }
        return LinkSides(kept: keepsOneToOneSides ? oneToOnesCarriedSideBySide(of: entity, from: from) : [],
                         inverseWasToMany: Set(narrowing.compactMap { finalRelationship($0.name, of: entity, from: from)?.relationship }))
    }

    /// Whether the last version fills what `relationship` of `entity` in version `from` becomes
    /// from the links of its inverse, the two staying inverses there.
    public func keepsInverse(_ relationship: Relationship, of entity: String, from: Int) -> Bool {
        keptInverses(relationship, of: entity, from: from) != nil
    }

    /// Whether `relationship` of `entity` in version `from` is carried to the last version but its
    /// inverse does not fill it there: the inverse relationship was removed (and some record of
    /// the destination is carried), or both are carried and are no longer inverses. A source that
    /// keeps one set of pairs for both (the inverse's column) must deliver this side's pairs,
    /// carried on their own: those leading to records of `carriedEntities(below:from:)` (a pair
    /// leading to a record dropped with its entity is dropped with it).
    public func losesInverse(_ relationship: Relationship, of entity: String, from: Int) -> Bool {
        guard versions[from].inverse(of: relationship) != nil, finalRelationship(relationship.name, of: entity, from: from) != nil else {
            return false
        }
        guard let carried = carriedWithInverse(relationship, of: entity, from: from) else {
            return !carriedEntities(below: relationship.destinationEntity, from: from).isEmpty
        }
        return keptInverse(of: carried) == nil
    }

    /// The concrete entities of `entity`'s hierarchy (itself included) in version `from` whose
    /// records reach the last version.
    public func carriedEntities(below entity: String, from: Int) -> [String] {
        versions[from].hierarchy(below: entity).filter { !$0.isAbstract && route(entity: $0.name, from: from).finalEntity != nil }.map(\.name)
    }

    /// The entities of the last version that records of `entity` (version `from`) become: the
    /// entity its route ends in, and those of the records the route's further mappings
    /// (`Route.branches`) make from them, each carried on by its own route. Each of these keeps
    /// the source record's identity (`Record.identity`).
    public func finalEntities(of entity: String, from: Int) -> Set<String> {
        let route = route(entity: entity, from: from)
        var found: Set<String> = route.finalEntity.map { [$0] } ?? []
        for (step, branches) in route.branches.enumerated() {
            for branch in branches { found.formUnion(finalEntities(of: branch.destination, from: route.stops[step + 1])) }
        }
        return found
    }

    /// What `relationship` and its inverse (version `from`) become in the last version, when
    /// both are carried and are inverses there too.
    private func keptInverses(_ relationship: Relationship, of entity: String, from: Int) -> (becomes: Relationship, inverse: Relationship)? {
        guard let carried = carriedWithInverse(relationship, of: entity, from: from), let inverse = keptInverse(of: carried) else { return nil }
        return (carried.becomes, inverse)
    }

    /// What `relationship` (version `from`) becomes in the last version, and what its inverse
    /// becomes, when both are carried.
    private func carriedWithInverse(_ relationship: Relationship, of entity: String, from: Int)
        -> (becomes: Relationship, inverse: (entity: String, relationship: String))?
    {
        let model = versions[from]
        // The inverse is carried with the records of the destination's concrete entities (an
        // abstract entity has no mapping of its own).
        guard let inverse = model.inverse(of: relationship),
              let final = finalRelationship(relationship.name, of: entity, from: from),
              let finalInverse = model.hierarchy(below: relationship.destinationEntity).lazy.filter({ !$0.isAbstract })
                  .compactMap({ self.finalRelationship(inverse.name, of: $0.name, from: from) }).first,
              let becomes = last.allRelationships(of: final.entity).first(where: { $0.name == final.relationship }) else { return nil }
        return (becomes, finalInverse)
    }

    /// The inverse in the last version of what a relationship became, when it is what the
    /// relationship's source inverse became.
    private func keptInverse(of carried: (becomes: Relationship, inverse: (entity: String, relationship: String))) -> Relationship? {
        guard let inverse = last.inverse(of: carried.becomes), inverse.name == carried.inverse.relationship,
              last.hierarchy(below: carried.becomes.destinationEntity).contains(where: { $0.name == carried.inverse.entity }) else { return nil }
        return inverse
    }

    private func transform(step: Int, mapping: EntityMapping) throws(MappingError) -> EntityTransform {
        let key = StepMapping(step: step, source: mapping.source, destination: mapping.destination)
        if let known = transforms[key] { return known }
        guard let source = schema(version: step, entity: mapping.source),
              let destination = schema(version: destinations[step], entity: mapping.destination) else {
            throw .model("\(mapping.source) → \(mapping.destination): entity missing in \(versions[step].name) or \(versions[destinations[step]].name)")
        }
        // Values no mapping of the step carries are counted once, by the step's first mapping of
        // the entity (a branch reads the same record).
        let siblings = (steps[step].entities + steps[step].branches).filter { $0.source == mapping.source }
        let read = siblings.reduce(into: Set<String>()) { $0.formUnion($1.readAttributes) }
        let counts = siblings.first?.destination == mapping.destination
        let made = try EntityTransform(mapping: mapping, source: source, destination: destination, options: options, variables: variables,
                                       destinationModel: versions[destinations[step]],
                                       uncarried: counts ? source.attributes.map(\.name).filter { !read.contains($0) } : [])
        transforms[key] = made
        return made
    }
}
