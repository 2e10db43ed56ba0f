import FerryModel

/// The file of one concrete entity while records are written: its layout, encoder, writer, a
/// byte buffer flushed in chunks, and the record count.
final class EntityFileOutput {
    let layout: EntityExportLayout
    let fileName: String
    private var encoder: any ExportRecordEncoder
    private let writer: ExportFileWriter
    private var buffer: [UInt8] = []
    private(set) var count = 0
    private static let chunk = 512 * 1024

    /// - Parameters:
    ///   - path: where the file is created (it must not exist).
    ///   - fileName: its name in the manifest.
    init(layout: EntityExportLayout, format: ExportFormat, path: String, fileName: String, gzipLevel: Int?,
         durable: Bool) throws(ExportError) {
        self.layout = layout
        self.fileName = fileName
        encoder = format.encoder(for: layout)
        writer = try ExportFileWriter(path: path, gzipLevel: gzipLevel, durable: durable,
                                      expandsBase64: encoder.writesDeferredBase64)
        buffer.reserveCapacity(Self.chunk + 4096)
        encoder.prologue(into: &buffer)
    }

    func write(_ row: ExportRow) throws(ExportError) {
        try encoder.encode(row, into: &buffer)
        count += 1
        if buffer.count >= Self.chunk { try flush() }
    }

    /// Writes the epilogue and completes the file; returns its manifest entry.
    func finish(model: ManagedObjectModel) throws(ExportError) -> ExportManifest.EntityFile {
        try encoder.epilogue(into: &buffer)
        try flush()
        let sha256 = try writer.finish()
        return ExportManifest.EntityFile(entity: layout.entity, file: fileName, count: count, bytes: writer.byteCount,
                                         sha256: sha256, attributes: layout.manifestFields(),
                                         relationships: layout.manifestLinks(model: model))
    }

    private func flush() throws(ExportError) {
        guard !buffer.isEmpty else { return }
        let full = buffer
        buffer = writer.emptyBuffer(capacity: Self.chunk + 4096)
        try writer.write(full)
    }
}
