import FerryFormats
import FerryModel
import FerryStore

/// The fingerprints of a store computed on a worker thread with a connection of its own, while
/// the verifier runs its SQL checks on its connection: the two passes share nothing but the
/// model, the layout and the file, which is only read.
///
/// The record reader, needed only for an entity with rows the scan leaves to it, is opened on first use.
final class FingerprintPass: Sendable {
    private let work: BackgroundWork<StoreFingerprints.Results, VerificationError>

    /// Starts computing the fingerprints of the store at `path`, read with `model`.
    init(path: String, model: ManagedObjectModel, layout: StoreLayout) {
        work = BackgroundWork { Result { () throws(VerificationError) in try Self.compute(path: path, model: model, layout: layout) } }
    }

    /// Waits for the worker and returns the fingerprints.
    /// - Throws: `VerificationError` when the store could not be read.
    func wait() throws(VerificationError) -> StoreFingerprints.Results { try work.wait() }

    private static func compute(path: String, model: ManagedObjectModel,
                                layout: StoreLayout) throws(VerificationError) -> StoreFingerprints.Results {
        let connection: ScanConnection
        do { connection = try ScanConnection(path: path, sampleLimit: 0) } catch { throw .unreadableStore(.sqlite(error)) }
        var opened: StoreRecordReader?
        let fingerprints = StoreFingerprints(
            context: StoreContext(model: model, layout: layout, connection: connection),
            records: { () throws(StoreReaderError) in
                if let opened { return opened }
                let reader = try CoreDataStoreReader(path: path).records(model: model)
                opened = reader
                return reader
            })
        return try fingerprints.all()
    }
}
