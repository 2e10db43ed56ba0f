import Ferry

/// `ferry delete STORE --entity E --where P [--dry-run] [--model M]`.
enum DeleteCommand: Command {
    static let name = "delete"
    static let summary = "delete matching objects, applying every relationship's delete rule"
    static let usage = """
        usage: ferry delete STORE --entity E --where P [--dry-run] [--model M] [--var NAME=VALUE...]

        Deletes the objects of E (and its sub-entities) matching P as Core Data would: Cascade
        deletes the destinations (recursively), Nullify clears the inverse on those that stay
        (their Z_OPT goes up by one), No Action leaves them pointing at the deleted object, and
        any destination of a Deny relationship refuses the whole delete, naming the blocking
        objects; so does an object that stays whose required relationship Nullify would empty or
        take below its minimum count (Core Data would not save it), that keeps a derived
        attribute reading the cleared relationship (only Core Data recomputes it), or that points
        at a deleted object through a to-one no delete rule reaches (no inverse, or an inverse
        whose key is empty: Core Data would leave it dangling). Join-table rows of deleted objects are removed, and so is the key a to-many
        relationship without an inverse keeps on the destinations that stay. Everything happens
        in one SQLite transaction on the store: it all happens or nothing does, and before it
        commits, verify's value and relationship checks run inside it and must find no failure
        the store did not have before, and every entity table must have lost exactly the rows
        the plan deletes (exit 5 otherwise). --dry-run lists
        what would happen and changes nothing. Use --where TRUEPREDICATE to delete every object.
        """
    static let options = [
        OptionSpec.entity("entity", "entity whose objects are deleted"),
        OptionSpec(name: "where", value: "P", help: "predicate choosing the objects (required)"),
        .flag("dry-run", "list what would be deleted, nullified or blocked; change nothing"),
        .path("model", "M", ".xcdatamodeld bundle (default: the store's model cache)"),
        MutationArguments.variable,
    ]

    static let exitCodes = [
        ExitCodeUse(.success, "deleted (or, with --dry-run, planned and not blocked)"),
        ExitCodeUse(.rejects, "deleted (or planned), but No Action left keys pointing at deleted objects: Core Data faults on them and verify reports them"),
        ExitCodeUse(.badInput, "the store, the model or the predicate cannot be read"),
        ExitCodeUse(.destination, "refused by a Deny rule, or by a required relationship, a key no delete rule clears or a derivation of an object that stays, or not written; nothing changed (with --dry-run: the plan lists what blocks it)"),
        ExitCodeUse(.verificationFailed, "the change would add failures to verify's value or relationship checks: rolled back, nothing changed"),
        ExitCodeUse(.locked, "another process (an app, another run) holds the store's lock past 5 seconds; nothing changed"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        let dryRun = arguments.has("dry-run")
        let job = DeleteJob(storePath: try MutationArguments.store(arguments, verb: name), modelPath: arguments.value("model"),
                            entity: try arguments.required("entity"), predicate: try arguments.required("where"),
                            variables: try MutationArguments.variables(arguments), dryRun: dryRun)
        do {
            let report = try job.run()
            Terminal.out(DeletePlanReport.text(report, dryRun: dryRun))
            if !dryRun, !report.deleted.isEmpty, let warning = PersistentHistory.unrecordedChange(store: job.storePath) { Terminal.error("warning: \(warning)\n") }
            // A dry run's exit code is the delete's: a plan a rule blocks would be refused.
            if dryRun, !report.blocked.isEmpty || !report.invalidated.isEmpty || !report.stranded.isEmpty { return .destination }
            // No Action does as Core Data does, and leaves a store an app faults on: not a plain success.
            guard report.dangling.isEmpty else {
                Terminal.error("warning: No Action \(dryRun ? "would leave" : "left") \(report.dangling.count) key\(report.dangling.count == 1 ? "" : "s") "
                    + "pointing at deleted objects (listed above): Core Data faults on them and `ferry verify` reports them "
                    + "(dangling-foreign-key); delete those objects too, or make the rule Nullify (a --model whose relationship says so)\n")
                return .rejects
            }
            return .success
        } catch {
            let hints = ModelNameHints(store: job.storePath, modelPath: job.modelPath, entity: job.entity)
            Terminal.error("ferry delete: \(error.description)\(hints.text)")
            return ExitCode(error)
        }
    }
}
