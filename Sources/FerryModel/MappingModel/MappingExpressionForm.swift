/// The expression forms of mapping models, as Apple's mapping compiler writes them and Core
/// Data's migration manager (`$manager`) evaluates them against the source object (`$source`)
/// (coredata-format.md §10.2): made here for `MappingModelCompiler`, and recognised here for
/// whoever runs a mapping model.
public enum MappingExpressionForm {
    /// The selector of the source fetch's request.
    static let fetchRequestSelector = "fetchRequestForSourceEntityNamed:predicateString:"

    /// Which destination instances a relationship mapping asks the migration manager for.
    public enum DestinationLookup: Sendable, Equatable {
        /// `destinationInstancesForEntityMappingNamed:sourceInstances:`: the instances the named
        /// entity mapping made from the given source objects.
        case entityMapping(String)
        /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:`: the instances every
        /// mapping of a kind of the relationship's destination made from them.
        case sourceRelationship(String)

        var selector: String {
            switch self {
            case .entityMapping: "destinationInstancesForEntityMappingNamed:sourceInstances:"
            case .sourceRelationship: "destinationInstancesForSourceRelationshipNamed:sourceInstances:"
            }
        }

        var name: String {
            switch self {
            case .entityMapping(let name), .sourceRelationship(let name): name
            }
        }
    }

    /// `$source.keyPath`.
    public static func sourceKeyPath(_ keyPath: String) -> ArchivedExpression {
        .keyPath(operand: .variable("source"), keyPath: keyPath)
    }

    /// The key path of `$source.keyPath`; nil for any other expression.
    public static func sourceKeyPath(in expression: ArchivedExpression) -> String? {
        guard case .keyPath(.variable("source"), let keyPath) = expression else { return nil }
        return keyPath
    }

    /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "ENTITY", "PREDICATE"), $manager.sourceContext, NO)`.
    public static func sourceFetch(entity: String, predicate: String) -> ArchivedExpression {
        .fetch(request: .function(operand: .variable("manager"), selector: fetchRequestSelector,
                                  arguments: [.constant(.string(entity)), .constant(.string(predicate))]),
               context: .keyPath(operand: .variable("manager"), keyPath: "sourceContext"), countOnly: false)
    }

    /// The entity and predicate text of a source fetch; nil for any other expression.
    public static func sourceFetch(_ expression: ArchivedExpression) -> (entity: String, predicate: String)? {
        guard case let .fetch(.function(.variable("manager"), selector, arguments), _, false) = expression,
              selector == fetchRequestSelector, arguments.count == 2,
              case .constant(.string(let entity)) = arguments[0], case .constant(.string(let predicate)) = arguments[1] else { return nil }
        return (entity, predicate)
    }

    /// `FUNCTION($manager, "destinationInstances…:sourceInstances:", "NAME", sourceInstances)`.
    public static func destinationInstances(_ lookup: DestinationLookup, sourceInstances: ArchivedExpression) -> ArchivedExpression {
        .function(operand: .variable("manager"), selector: lookup.selector, arguments: [.constant(.string(lookup.name)), sourceInstances])
    }

    /// The lookup and source instances of a `destinationInstances…` call; nil for any other expression.
    public static func destinationInstances(in expression: ArchivedExpression)
        -> (lookup: DestinationLookup, sourceInstances: ArchivedExpression)?
    {
        guard case let .function(.variable("manager"), selector, arguments) = expression, arguments.count == 2,
              case .constant(.string(let name)) = arguments[0] else { return nil }
        for lookup in [DestinationLookup.entityMapping(name), .sourceRelationship(name)] where lookup.selector == selector {
            return (lookup, arguments[1])
        }
        return nil
    }
}
