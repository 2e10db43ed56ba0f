import FerryFormats
import FerryModel
import FerryStore
import FerryVerify
import FoundationEssentials

/// What a verified migration leaves in its store's metadata (an application key of `Z_PLIST`,
/// as Core Data's `setMetadata` would keep it), so that `ferry verify --against` can prove the
/// store against its sources without migrating them again: the digests of every input
/// (`MigrationInputs`), the ledger, and the fingerprints of every entity and relationship as
/// verified in the store before it was put in place.
///
/// The proof it allows: when the sources, model, mapping files, options and Ferry version are
/// the same, migrating again would write the same records and links (the mapping is
/// deterministic), and those had these fingerprints; a store whose fingerprints still equal them
/// holds them still. What it cannot show is a difference the first run already wrote
/// (a corruption between mapping and disk that the checks after writing let through): for that,
/// `--rerun` migrates again.
struct MigrationReceipt: Codable, Equatable, Sendable {
    /// The metadata key.
    static let metadataKey = "FerryMigrationReceipt"

    var inputs: MigrationInputs
    /// When the store was written (ISO 8601).
    var written: String
    var ledgers: [JobAccounting.Ledger]
    /// Records written and links created.
    var records: Int
    var links: Int
    var fingerprints: [FingerprintEntry]
    var edgeFingerprints: [FingerprintEntry]
    /// The store's UUID, which every object's URI holds (nil in receipts written before it was
    /// kept): another UUID in the store is other objects to Core Data, whatever the records.
    var storeUUID: String?

    /// The receipt of a migration whose store, of UUID `storeUUID`, was verified as `report`.
    init(inputs: MigrationInputs, accounting: JobAccounting, report: VerificationReport, storeUUID: String?, date: Date = Date()) {
        self.inputs = inputs
        self.storeUUID = storeUUID
        written = ISO8601Date.format(date.timeIntervalSinceReferenceDate.rounded(.down)) ?? ""
        ledgers = accounting.ledgers
        records = accounting.written ?? 0
        links = accounting.created
        fingerprints = report.fingerprints
        edgeFingerprints = report.edgeFingerprints
    }

    /// The metadata value: the receipt as JSON text.
    func metadataValue() throws -> PropertyListValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .string(String(decoding: try encoder.encode(self), as: UTF8.self))
    }

    /// The receipt in a store's metadata; nil when there is none. A value that is not a receipt
    /// is an error (the store was changed by something that does not know the key).
    static func read(from metadata: StoreMetadataInfo) throws -> MigrationReceipt? {
        guard let value = metadata.propertyList[metadataKey] else { return nil }
        guard case .string(let text) = value else { throw ReceiptError.notText }
        return try JSONDecoder().decode(MigrationReceipt.self, from: Data(text.utf8))
    }

    private enum ReceiptError: Error, CustomStringConvertible {
        case notText
        var description: String { "\(MigrationReceipt.metadataKey) is not text" }
    }

    /// The accounting the receipt records, for the store at `store` read with `model`.
    func accounting(store: String, model: ManagedObjectModel) -> JobAccounting {
        JobAccounting(ledgers: ledgers, written: records, created: links, store: store, model: model)
    }
}
