import Ferry
import FerryStore
import FerryFormats

/// `ferry query STORE --entity E [--where P] [--sort K] [--limit N] [--offset N] [--format F]`.
enum QueryCommand: Command {
    static let name = "query"
    static let summary = "print the objects of an entity that match a predicate"
    static let usage = """
        usage: ferry query STORE --entity E [--where P] [--sort KEY[,-KEY...]] [--limit N] [--offset N]
                           [--format table|json|ndjson|csv] [--model M] [--var NAME=VALUE...]

        Prints what a Core Data fetch request would return: objects of E and its sub-entities
        matching the predicate P (NSPredicate syntax; Z_PK names an object's key), sorted by the
        keys (then Z_PK), with Z_PK, the entity, every stored attribute of E (declared or
        inherited: the properties a sub-entity adds show when E is that sub-entity), each to-one
        relationship as the destination's Z_PK and each to-many relationship as its destinations'
        Z_PKs in order (a JSON array; separated by spaces in the table and CSV, as export writes them).
        Dates are ISO 8601 UTC, binary values <N bytes> in the table and base64 in JSON and CSV
        (values of attributes that allow external storage without Core Data's tag, or read from
        the external data file they name). Binary attributes compare with nil only. The model is
        the version of M whose hashes match the store, or else the store's own model cache. The
        store is only read.

        example: ferry query Workspace.sqlite --entity Task --where 'priority > 2 AND tags.@count > 0' --sort -dueDate
        """
    static let options = [
        OptionSpec.entity("entity", "entity to fetch (sub-entities included)"),
        OptionSpec(name: "where", value: "P", help: "predicate in NSPredicate format syntax"),
        OptionSpec(name: "sort", value: "KEYS", help: "sort keys, comma separated, -key for descending"),
        .integer("limit", "N", 0...Int.max, "at most N objects (0: no limit, as a fetch request's fetchLimit)"),
        .integer("offset", "N", 0...Int.max, "skip the first N objects"),
        .choice("format", QueryFormat.self, "how objects are printed (default table)"),
        .path("model", "M", ".xcdatamodeld bundle (default: the store's model cache)"),
        MutationArguments.variable,
    ]

    static let exitCodes = [
        ExitCodeUse(.success, "printed"),
        ExitCodeUse(.badInput, "the store, the model or the predicate cannot be read, or names no such entity"),
        ExitCodeUse(.destination, "no room for SQLite's temporary files (a sort): \"disk full writing temporary files in …\""),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        let store = try MutationArguments.store(arguments, verb: name)
        let format = try arguments.choice("format", as: QueryFormat.self) ?? .table
        // A fetch limit of 0 is no limit, as Core Data's `fetchLimit` is.
        let limit = try arguments.integer("limit").flatMap { $0 == 0 ? nil : $0 }, offset = try arguments.integer("offset") ?? 0
        let request = QueryRequest(
            storePath: store, modelPath: arguments.value("model"), entity: try arguments.required("entity"),
            predicate: arguments.value("where"), sort: arguments.value("sort"), limit: limit,
            offset: offset, variables: try MutationArguments.variables(arguments), format: format)
        do {
            let sink = try FileByteSink(path: "-")
            try QueryJob(request: request).run(to: sink)
        } catch let error as QueryError {
            let hints = ModelNameHints(store: store, modelPath: request.modelPath, entity: request.entity)
            Terminal.error("ferry query: \(error.description)\(hints.text)")
            return ExitCode(error)
        } catch {
            Terminal.error("ferry query: \(error)")
            return .badInput
        }
        return .success
    }
}

/// The arguments `query`, `delete` and `update` share: the store and `--var`.
enum MutationArguments {
    /// `--var NAME=VALUE` of query, update and delete.
    static let variable = OptionSpec(name: "var", value: "NAME=VALUE", help: "text of $NAME in the predicate, read as the type of the "
                                     + "attribute it is compared with (a String takes it as written: nil is written in the predicate)",
                                     repeatable: true)

    /// The `--var` values, each its text (`PredicateVariableText`).
    static func variables(_ arguments: ParsedArguments) throws(UsageError) -> [String: PredicateValue] {
        PredicateVariableText.variables(try Pairs.list(arguments, "var", emptyValues: true))
    }

    static func store(_ arguments: ParsedArguments, verb: String) throws(UsageError) -> String {
        guard arguments.positionals.count == 1, let store = arguments.positionals.first else {
            throw UsageError("\(verb) takes exactly one STORE path")
        }
        return store
    }

}

extension ExitCode {
    /// The exit code of a failed query, update or delete: 4 when the store refused the change (a
    /// uniqueness constraint, a Deny rule, a required relationship, a key no delete rule clears or
    /// a derivation of what stays) or could not be written, or the environment failed the run (no
    /// room, no descriptor, a read-only folder: `environmentFailure`), else 3: the store, model,
    /// predicate or a value given cannot be used (an attribute the entity lacks or that is derived
    /// is bad input, a store with triggers Core Data did not write too).
    init(_ error: QueryError) {
        if error.environmentFailure != nil {
            self = .destination
            return
        }
        guard case .mutation(let mutation) = error else {
            self = .badInput
            return
        }
        switch mutation {
        case .uniquenessViolation, .denied, .requiredReferences, .strandedReferences, .readByDerivedAttribute, .unsupported, .sqlite:
            self = .destination
        case .store, .foreignTriggers, .predicate, .unknownAttribute, .typeMismatch, .requiredAttribute, .derivedAttribute: self = .badInput
        case .changeBreaksStore: self = .verificationFailed
        case .locked: self = .locked
        }
    }
}
