/// One input of a migration: a store (its version found by its version hashes), or a legacy file
/// with the entity its records belong to.
public struct MigrationSource: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case store
        /// Records of `entity` (by name) of the oldest model version that has an entity of that
        /// name, or of `version` when given.
        case file(entity: String, version: String?)
    }

    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// `PATH` is a store; `ENTITY:PATH` or `ENTITY@VERSION:PATH` is a legacy file.
    public init(argument: String) {
        guard let colon = argument.firstIndex(of: ":"), !argument[..<colon].contains("/") else {
            self.init(path: argument, kind: .store)
            return
        }
        let head = argument[..<colon]
        let path = String(argument[argument.index(after: colon)...])
        if let at = head.firstIndex(of: "@") {
            self.init(path: path, kind: .file(entity: String(head[..<at]), version: String(head[head.index(after: at)...])))
        } else {
            self.init(path: path, kind: .file(entity: String(head), version: nil))
        }
    }

    public var description: String {
        switch kind {
        case .store: path
        case let .file(entity, version): "\(entity)\(version.map { "@\($0)" } ?? ""):\(path)"
        }
    }
}
