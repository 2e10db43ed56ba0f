/// A versioned model (an `.xcdatamodeld` bundle, or a compiled `.momd`): every version and which
/// one is current.
public struct ModelBundle: Sendable, Equatable {
    /// The bundle name without extension (`Workspace` for `Workspace.xcdatamodeld`).
    public var name: String
    /// Versions in a stable order: by name, numerically aware (`Model 2` before `Model 10`).
    public var versions: [ManagedObjectModel]
    /// The name of the current version.
    public var currentVersionName: String

    public init(name: String, versions: [ManagedObjectModel], currentVersionName: String) {
        self.name = name
        self.versions = versions.sorted { VersionOrder.precedes($0.name, $1.name) }
        self.currentVersionName = currentVersionName
    }

    /// The current version.
    public var current: ManagedObjectModel? { version(named: currentVersionName) }

    /// The version with this name (with or without the `.xcdatamodel` extension).
    public func version(named name: String) -> ManagedObjectModel? {
        let bare = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
        return versions.first { $0.name == bare }
    }
}

/// Orders version names so that embedded numbers compare by value: `V2` < `V10`, `Model` < `Model2`.
public enum VersionOrder {
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var left = Array(a.unicodeScalars)[...]
        var right = Array(b.unicodeScalars)[...]
        while let l = left.first, let r = right.first {
            if isDigit(l), isDigit(r) {
                let ln = takeNumber(&left), rn = takeNumber(&right)
                if ln != rn { return ln < rn }
                continue
            }
            if l != r { return l.value < r.value }
            left = left.dropFirst()
            right = right.dropFirst()
        }
        return left.isEmpty && !right.isEmpty
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// Consumes a run of ASCII digits and returns its value (saturating at `Int.max`).
    private static func takeNumber(_ scalars: inout ArraySlice<Unicode.Scalar>) -> Int {
        let digits = scalars.prefix(while: isDigit)
        scalars = scalars.dropFirst(digits.count)
        return digits.reduce(0) { value, digit in
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(digit.value - 48))
            return o1 || o2 ? Int.max : sum
        }
    }
}
