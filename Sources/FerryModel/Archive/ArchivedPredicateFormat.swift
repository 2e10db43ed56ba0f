/// Renders archived `NSPredicate`/`NSExpression` graphs (modelcache-format.md §4.9) as predicate
/// format text (`authorAlias == $FETCH_SOURCE.alias`, `count:(pages)`), for the model's
/// `predicateString`, validation rules, `derivationExpression` and `filteringPredicate`. Classes it
/// does not know make the whole text nil: the schema does not depend on it. Nesting is bounded, so a
/// self-referencing graph ends in an error, and so are the objects one text visits
/// (`KeyedArchive.maxVisits`), so shared subpredicates cannot make the text grow exponentially.
struct ArchivedPredicateFormat {
    let archive: KeyedArchive
    var maxDepth = 64

    /// The text of the predicate or expression at `index`, or nil when some part is not renderable.
    func text(at index: Int, keyPath: String) throws(ModelArchiveError) -> String? {
        var budget = ArchiveWalkBudget(limit: archive.maxVisits)
        return try render(index, keyPath: keyPath, depth: 0, budget: &budget)
    }

    private func render(_ index: Int, keyPath: String, depth: Int, budget: inout ArchiveWalkBudget) throws(ModelArchiveError) -> String? {
        guard depth < maxDepth else { throw .invalid(reason: "predicate or expression nests deeper than \(maxDepth)", keyPath: keyPath) }
        do { try budget.visit(keyPath: keyPath) } catch { throw .archive(error) }
        let object: ArchivedObject
        do { object = try archive.object(at: index, keyPath: keyPath) } catch { throw .archive(error) }
        func child(_ key: String) throws(ModelArchiveError) -> String? {
            let target: Int?
            do { target = try object.reference(key) } catch { throw .archive(error) }
            guard let target else { return nil }
            return try render(target, keyPath: object.path(key), depth: depth + 1, budget: &budget)
        }
        func children(_ key: String) throws(ModelArchiveError) -> [String]? {
            let members: [Int]
            do { members = try object.elements(key) } catch { throw .archive(error) }
            var texts: [String] = []
            for (offset, member) in members.enumerated() {
                guard let text = try render(member, keyPath: object.path(key) + "[\(offset)]", depth: depth + 1, budget: &budget) else { return nil }
                texts.append(text)
            }
            return texts
        }
        do {
            switch object.className {
            case "NSTruePredicate": return "TRUEPREDICATE"
            case "NSFalsePredicate": return "FALSEPREDICATE"
            case "NSCompoundPredicate":
                guard let parts = try children("NSSubpredicates") else { return nil }
                switch try object.integer("NSCompoundPredicateType") {
                case 0?: return parts.count == 1 ? "NOT " + parts[0] : nil
                case 1?: return parts.map(parenthesized).joined(separator: " AND ")
                case 2?: return parts.map(parenthesized).joined(separator: " OR ")
                default: return nil
                }
            case "NSComparisonPredicate":
                guard let left = try child("NSLeftExpression"), let right = try child("NSRightExpression"),
                      let op = try object.object("NSPredicateOperator"), let symbol = try comparison(op) else { return nil }
                return "\(left) \(symbol) \(right)"
            default:
                // Expressions print as `ArchivedExpression` prints them; other classes have no text.
                guard object.className.hasSuffix("Expression") else { return nil }
                return try ArchivedExpressionReader(archive: archive, maxDepth: maxDepth).expression(at: index, keyPath: keyPath, depth: depth).text
            }
        } catch let error as KeyedArchiveError {
            throw .archive(error)
        } catch let error as ModelArchiveError {
            throw error
        } catch {
            throw .invalid(reason: "\(error)", keyPath: keyPath)
        }
    }

    private func parenthesized(_ text: String) -> String {
        text.contains(" AND ") || text.contains(" OR ") ? "(" + text + ")" : text
    }

    /// The operator symbol with its modifier and `[cd]` options.
    private func comparison(_ op: ArchivedObject) throws(KeyedArchiveError) -> String? {
        let symbols: [Int: String] = [0: "<", 1: "<=", 2: ">", 3: ">=", 4: "==", 5: "!=", 6: "MATCHES", 7: "LIKE",
                                      8: "BEGINSWITH", 9: "ENDSWITH", 10: "IN", 99: "CONTAINS", 100: "BETWEEN"]
        guard let code = try op.integer("NSOperatorType"), let symbol = symbols[code] else { return nil }
        var options = try op.integer("NSFlags") ?? 0
        if op.fields["NSFlags"] == nil { options = try op.integer("NSOptions") ?? 0 }
        let suffix = options & 3 == 0 ? "" : "[" + (options & 1 != 0 ? "c" : "") + (options & 2 != 0 ? "d" : "") + "]"
        return symbol + suffix
    }
}
