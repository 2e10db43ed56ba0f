import Ferry

/// `ferry update STORE --entity E --where P --set key=value... [--dry-run] [--model M]`.
enum UpdateCommand: Command {
    static let name = "update"
    static let summary = "set attributes of matching objects"
    static let usage = """
        usage: ferry update STORE --entity E --where P --set KEY=VALUE... [--dry-run] [--model M] [--var NAME=VALUE...]

        Sets attributes of the objects of E (and its sub-entities) matching P. Values follow
        import's rules for their attribute's type (booleans 1/0, true/false, yes/no, UUIDs
        8-4-4-4-12, binary base64, stored with Core Data's tag where the attribute allows external
        storage); dates in ISO 8601 only (a bare number is refused: P compares a Date with seconds
        since 2001, as Core Data does, import reads Unix seconds); an empty value sets NULL, which
        required attributes refuse, and "" (quoted: KEY='""') the empty String or Binary.
        Uniqueness constraints are checked; a violation names
        the value and changes nothing. Derived attributes are Core Data's to compute: neither they
        nor the attributes their derivations read can be set, unless the store's triggers keep them. Changed objects get Z_OPT + 1. One SQLite transaction;
        before it commits, verify's value and relationship checks run inside it and must find no
        failure the store did not have before (exit 5 otherwise).
        --dry-run lists the objects that would change, after the same checks, and writes nothing.

        example: ferry update Workspace.sqlite --entity Task --where 'taskID == 7' --set priority=3 --set dueDate=2024-05-01T09:00:00Z
        """
    static let options = [
        OptionSpec.entity("entity", "entity whose objects change"),
        OptionSpec(name: "where", value: "P", help: "predicate choosing the objects (required)"),
        OptionSpec(name: "set", value: "KEY=VALUE", help: "attribute to set (repeatable)", repeatable: true),
        .flag("dry-run", "list the objects that would change; change nothing"),
        .path("model", "M", ".xcdatamodeld bundle (default: the store's model cache)"),
        MutationArguments.variable,
    ]

    static let exitCodes = [
        ExitCodeUse(.success, "updated (or, with --dry-run, planned)"),
        ExitCodeUse(.badInput, "the store, the model or the predicate cannot be read; an attribute the entity lacks or that is derived; a value its attribute refuses"),
        ExitCodeUse(.destination, "refused by a uniqueness constraint or a derivation it would leave stale, or not written; nothing changed"),
        ExitCodeUse(.verificationFailed, "the change would add failures to verify's value or relationship checks: rolled back, nothing changed"),
        ExitCodeUse(.locked, "another process (an app, another run) holds the store's lock past 5 seconds; nothing changed"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        let assignments = try Pairs.list(arguments, "set", emptyValues: true)
        guard !assignments.isEmpty else { throw UsageError("--set is required") }
        let job = UpdateJob(storePath: try MutationArguments.store(arguments, verb: name), modelPath: arguments.value("model"),
                            entity: try arguments.required("entity"), predicate: try arguments.required("where"),
                            assignments: assignments, variables: try MutationArguments.variables(arguments))
        do {
            if arguments.has("dry-run") {
                Terminal.out(UpdatePlanReport.text(try job.plan(), assignments: assignments))
                return .success
            }
            let changed = try job.run()
            Terminal.out("\(changed) \(changed == 1 ? "object" : "objects") updated\n")
            if changed > 0, let warning = PersistentHistory.unrecordedChange(store: job.storePath) { Terminal.error("warning: \(warning)\n") }
            return .success
        } catch {
            let hints = ModelNameHints(store: job.storePath, modelPath: job.modelPath, entity: job.entity, keys: assignments.map(\.key))
            Terminal.error("ferry update: \(error.description)\(hints.text)")
            return ExitCode(error)
        }
    }
}
