import FerryFormats
import FerryModel
import FerryStore
import FoundationEssentials

/// The digest of the values a store keeps outside its database: the files of its external data
/// folder (`ExternalDataFolder`, `.NAME_SUPPORT/_EXTERNAL_DATA`), each by its name and the
/// SHA-256 of its bytes, in byte order of the names. A row holds only such a file's name, so a
/// changed, added or removed file changes what migrating the store writes while its `.sqlite`
/// stays as it was.
///
/// Every entry of the folder counts, not only the files the store's rows name: finding those
/// would take a scan of every table, and a file no row names only makes `verify --against`
/// migrate again when it changes. An entry that is not a regular file (a link, a folder, a FIFO:
/// no value is read from one) counts by its name and kind, and is neither followed nor read.
enum ExternalDataDigest {
    /// The digest (lowercase hex) of the folder of the store at `storePath`; nil when it has none.
    static func of(storePath: String) throws(MigrateError) -> String? {
        let folder = ExternalDataFolder.path(besideStore: storePath)
        guard let kind = FileInfo.kind(atPath: folder) else { return nil }
        let support = String(folder.dropLast("/_EXTERNAL_DATA".count))
        // No value is read through a link (`ExternalDataFolder`): a linked folder counts as one, not followed.
        guard kind == .directory, FileInfo.kind(atPath: support) == .directory else {
            return Hex.string(SHA256.hash(Array("not a folder of the store\n".utf8)))
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw .store(source: folder, reason: "cannot list the external data folder: \(error)")
        }
        var listing = ""
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let path = folder + "/" + name
            let entry = FileInfo.kind(atPath: path)
            guard entry == .regularFile else {
                listing += "\(name)\n\(entry.map { "\($0)" } ?? "gone")\n"
                continue
            }
            do { listing += "\(name)\n\(try FileDigest.sha256(of: path, regularFileOnly: true).digest)\n" } catch {
                throw .store(source: path, reason: "cannot read it to take its digest: \(ErrorText.reason(of: error, at: path))")
            }
        }
        return Hex.string(SHA256.hash(Array(listing.utf8)))
    }
}
