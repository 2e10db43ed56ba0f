import FerryFormats

/// `.xccurrentversion` of an `.xcdatamodeld` bundle: an XML plist whose `_XCCurrentVersionName`
/// names the current version folder (`Model 2.xcdatamodel`), coredata-format.md §9.
enum CurrentVersionFile {
    static let fileName = ".xccurrentversion"
    private static let key = "_XCCurrentVersionName"
    private static let versionExtension = ".xcdatamodel"

    /// The current version's name without its extension, or nil when the file names none.
    static func versionName(_ bytes: [UInt8], file: String) throws(ModelLoadError) -> String? {
        let root: XMLElementTree
        do { root = try SafeXMLParser.parse(bytes, source: file) } catch { throw .xml(error) }
        guard let dict = root.children(named: "dict").first else { return nil }
        var pendingKey: String?
        for child in dict.children {
            if child.name == "key" {
                pendingKey = child.text
            } else {
                if pendingKey == key, child.name == "string" {
                    let name = child.text
                    return name.hasSuffix(versionExtension) ? String(name.dropLast(versionExtension.count)) : name
                }
                pendingKey = nil
            }
        }
        return nil
    }

    /// The file naming `versionName` as current, as Xcode writes it (Apple's XML plist layout).
    static func contents(versionName: String) throws(ModelWriteError) -> [UInt8] {
        do {
            return try XMLPropertyListWriter().encode(.dictionary([key: .string(versionName + versionExtension)]))
        } catch {
            throw .cannotWrite(path: fileName, reason: ErrorText.reason(of: error, at: fileName))
        }
    }
}
