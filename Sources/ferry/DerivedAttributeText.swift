import FerryStore

/// The warning about derived attributes a job wrote without computing them.
enum DerivedAttributeText {
    /// Warns, when there are any, that the values of `derivations` are the records' own: Core
    /// Data would have computed them (Ferry computes `UnkeptDerivation.keptDerivations` alone).
    static func warn(_ derivations: [String], log: RunLog) {
        guard !derivations.isEmpty else { return }
        log.warning("warning: derived attributes written as the records give them, not computed (Core Data computes them when it "
            + "next saves each object; Ferry computes \(UnkeptDerivation.keptDerivations) alone): \(derivations.joined(separator: ", "))")
    }
}
