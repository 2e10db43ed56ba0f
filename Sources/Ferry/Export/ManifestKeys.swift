import FerryFormats

/// The keys of a manifest's file, checked against those its decoding keeps: a key no manifest
/// has (`applicationMetadata` misspelled) was passed over and the field it named taken as absent,
/// and a key given twice was read as one of its values, without a word either way.
enum ManifestKeys {
    /// The first problem of the keys of `file` (a manifest's JSON as read), given `kept` (the
    /// manifest decoded from it, encoded again), each named by its path (`state.primaryKeyMaxima`,
    /// `entities[0].sha256`): a key one object holds twice, or one `kept` has not; nil when
    /// there is none. `path` is where `file` is in the manifest ("" for the whole).
    static func problem(in file: JSONValue, kept: JSONValue, at path: String = "") -> String? {
        switch (file, kept) {
        case let (.object(members), .object(keptMembers)):
            let keptValues = Dictionary(keptMembers.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            var seen = Set<String>(minimumCapacity: members.count)
            for member in members {
                let name = path.isEmpty ? member.key : path + "." + member.key
                guard seen.insert(member.key).inserted else { return "the key \(name) appears twice" }
                guard let keptValue = keptValues[member.key] else {
                    return member.value == .null ? "the value of \(name) is null, which no manifest holds" : "\(name) is no key of a manifest"
                }
                if let problem = problem(in: member.value, kept: keptValue, at: name) { return problem }
            }
            return nil
        case let (.array(elements), .array(keptElements)):
            for (index, (element, keptElement)) in zip(elements, keptElements).enumerated() {
                if let problem = problem(in: element, kept: keptElement, at: path + "[\(index)]") { return problem }
            }
            return nil
        default:
            return nil
        }
    }
}
