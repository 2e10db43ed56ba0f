/// Reads `NSExpression` objects of a keyed archive into `ArchivedExpression` trees. Nesting is
/// bounded, so a self-referencing graph ends in an error instead of a loop.
struct ArchivedExpressionReader {
    let archive: KeyedArchive
    var maxDepth = 64

    /// The expression at `index`, reached at nesting `depth` (a reader of enclosing predicates passes its own).
    func expression(at index: Int, keyPath: String, depth: Int = 0) throws(ModelArchiveError) -> ArchivedExpression {
        guard depth < maxDepth else { throw .invalid(reason: "expression nests deeper than \(maxDepth)", keyPath: keyPath) }
        do {
            let object = try archive.object(at: index, keyPath: keyPath)
            /// A referenced expression; a missing one makes the whole expression unsupported.
            func child(_ key: String) throws(ModelArchiveError) -> ArchivedExpression {
                let target: Int?
                do { target = try object.reference(key) } catch { throw .archive(error) }
                guard let target else { return .unsupported(className: object.className) }
                return try expression(at: target, keyPath: object.path(key), depth: depth + 1)
            }
            func arguments() throws(ModelArchiveError) -> [ArchivedExpression] {
                let members: [Int]
                do { members = try object.elements("NSArguments") } catch { throw .archive(error) }
                var result: [ArchivedExpression] = []
                for (offset, member) in members.enumerated() {
                    result.append(try expression(at: member, keyPath: object.path("NSArguments") + "[\(offset)]", depth: depth + 1))
                }
                return result
            }
            switch object.className {
            case "NSSelfExpression":
                return .evaluatedObject
            case "NSVariableExpression":
                return try object.string("NSVariable").map(ArchivedExpression.variable) ?? .unsupported(className: object.className)
            case "NSKeyPathSpecifierExpression":
                return try object.string("NSKeyPath").map(ArchivedExpression.keyPathSpecifier) ?? .unsupported(className: object.className)
            case "NSConstantValueExpression":
                if let name = try object.string("NSConstantValueClassName") { return .classConstant(name) }
                return .constant(try archive.value(of: object, key: "NSConstantValue"))
            case "NSKeyPathExpression":
                let operand = try child("NSOperand")
                let path = try arguments()
                switch path.first {
                case .keyPathSpecifier(let text)? where path.count == 1: return .keyPath(operand: operand, keyPath: text)
                case .constant(.string(let text))? where path.count == 1: return .keyPath(operand: operand, keyPath: text)
                default: return .unsupported(className: object.className)
                }
            case "NSFunctionExpression":
                guard let selector = try object.string("NSSelectorName") else { return .unsupported(className: object.className) }
                return .function(operand: try child("NSOperand"), selector: selector, arguments: try arguments())
            case "NSFetchRequestExpression":
                return .fetch(request: try child("NSFRExpression"), context: try child("NSMOCExpression"),
                              countOnly: try object.flag("NSCountOnlyFlag"))
            default:
                return .unsupported(className: object.className)
            }
        } catch let error as KeyedArchiveError {
            throw .archive(error)
        } catch let error as ModelArchiveError {
            throw error
        } catch {
            throw .invalid(reason: "\(error)", keyPath: keyPath)
        }
    }
}
