/// A mapping a migration finds beside the model (or is given): a written mapping file or a Core
/// Data mapping model, with the two versions it maps, as indices in the bundle's order. A file
/// maps the versions its name gives; a mapping model the versions whose entity version hashes
/// it matches, so one may be found for several pairs.
struct FoundMapping: Equatable {
    let path: String
    let from: Int
    let to: Int
}
