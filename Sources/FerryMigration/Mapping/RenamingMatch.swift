import FerryModel

/// An entity, attribute or relationship as inference matches it: by name and renaming identifier
/// (Xcode's `elementID`, which defaults to the name).
protocol RenamableElement {
    var name: String { get }
    var renamingIdentifier: String? { get }
    var effectiveRenamingIdentifier: String { get }
}

extension Entity: RenamableElement {}
extension Attribute: RenamableElement {}
extension Relationship: RenamableElement {}

/// Pairs destination elements with source elements one to one, as Core Data's inferred mapping
/// does by identifier, and more:
/// 1. a source whose identifier equals the destination's (Core Data's rule);
/// 2. else a source named by the destination's identifier (a rename declared in one version only);
/// 3. else a source of the same name.
/// Each rule is tried for every destination before the next, and a source feeds one destination:
/// a source carried to a renamed element is not also copied into a new element that took its
/// name. Within a rule, destinations that declare a renaming identifier choose first, then the
/// rest in model order, and each takes, of the sources that fit, the one of its own name first:
/// a version holding a renamed `title` (identifier `name`) and a new `name` shares one identifier
/// between the two, and the next version's `title` took the source's `name`, swapping every
/// record's values of the two (or every record's entity, for entities).
struct RenamingMatch<Element: RenamableElement> {
    /// Destination index → source index.
    private(set) var sourceOf: [Int: Int] = [:]
    /// Destination index → the source it would have matched, had another destination not taken it.
    private(set) var takenFrom: [Int: Int] = [:]

    /// `eligible` says whether a source may feed a destination at all (a relationship whose
    /// records' destinations the other could not hold).
    init(_ targets: [Element], among candidates: [Element], eligible: (Element, Element) -> Bool = { _, _ in true }) {
        let rules: [(Element, Element) -> Bool] = [
            { $0.effectiveRenamingIdentifier == $1.effectiveRenamingIdentifier },
            { $0.name == $1.effectiveRenamingIdentifier },
            { $0.name == $1.name },
        ]
        let order = targets.indices.filter { targets[$0].renamingIdentifier != nil } + targets.indices.filter { targets[$0].renamingIdentifier == nil }
        var claimed = Set<Int>()
        for rule in rules {
            for target in order where sourceOf[target] == nil {
                let fits = candidates.indices.filter { rule(candidates[$0], targets[target]) && eligible(candidates[$0], targets[target]) }
                let name = targets[target].name
                if let free = fits.first(where: { !claimed.contains($0) && candidates[$0].name == name })
                    ?? fits.first(where: { !claimed.contains($0) }) {
                    sourceOf[target] = free
                    claimed.insert(free)
                } else if let taken = fits.first, takenFrom[target] == nil {
                    takenFrom[target] = taken
                }
            }
        }
        for target in sourceOf.keys { takenFrom[target] = nil }
    }

    /// The source that feeds `target`, if any.
    func source(of target: Int, in candidates: [Element]) -> Element? { sourceOf[target].map { candidates[$0] } }

    /// The destination that took the source `source`.
    func target(taking source: Int) -> Int? { sourceOf.first { $0.value == source }?.key }
}
