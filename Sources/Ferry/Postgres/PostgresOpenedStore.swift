import FerryFormats
import FerryModel
import FerryStore

/// A store opened for a load, before the load needs it: its reader, the model version it is read
/// with and the layout of its tables. A fleet worker opens its next store on a worker thread while
/// the server finishes the current one (`PostgresExportJob`), so that the server does not wait for
/// this file work between stores.
///
/// `@unchecked Sendable`: made on one thread and handed over once, through `BackgroundWork`'s
/// outcome, to the worker that loads it; one thread uses it at a time.
final class PostgresOpenedStore: @unchecked Sendable {
    let path: String
    let store: CoreDataStoreReader
    let model: ManagedObjectModel
    let info: ExportManifest.ModelInfo
    let reader: StoreRecordReader
    let layout: PostgresLayout
    /// The store's files before it was opened: the state its relationship checks must be of.
    let stamp: StoreFileStamp
    /// How long opening took, in seconds (part of the store's time in the summary).
    let seconds: Double

    /// Opens the store at `path`, matched against `bundle` (nil: read with the model it carries).
    init(path: String, bundle: ExportModelSource.Bundle?) throws(PostgresTransferError) {
        let clock = ContinuousClock()
        let started = clock.now
        self.path = path
        stamp = StoreFileStamp(path)
        do { store = try CoreDataStoreReader(path: path) } catch { throw .export(.store(error)) }
        let resolved: (model: ManagedObjectModel, info: ExportManifest.ModelInfo)
        do { resolved = try ExportModelSource.resolve(bundle: bundle, store: store) } catch { throw .export(error) }
        (model, info) = resolved
        do { reader = try store.records(model: model) } catch { throw .export(.store(error)) }
        layout = try PostgresLayout(model: model)
        seconds = PostgresExportJob.seconds(clock.now - started)
    }
}
