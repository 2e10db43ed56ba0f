/// Turns the records of one entity file into bytes: a prologue, one chunk per record, an epilogue.
protocol ExportRecordEncoder {
    /// Whether the bytes hold `DeferredBase64` spans for the writer to expand.
    var writesDeferredBase64: Bool { get }
    mutating func prologue(into output: inout [UInt8])
    mutating func encode(_ row: ExportRow, into output: inout [UInt8]) throws(ExportError)
    mutating func epilogue(into output: inout [UInt8]) throws(ExportError)
}

extension ExportFormat {
    /// The encoder of this format for files of one entity.
    func encoder(for layout: EntityExportLayout) -> any ExportRecordEncoder {
        switch self {
        case .ndjson: JSONRecordEncoder(layout: layout, asArray: false)
        case .json: JSONRecordEncoder(layout: layout, asArray: true)
        case .csv: CSVRecordEncoder(layout: layout)
        case .plist: XMLPlistRecordEncoder(layout: layout)
        case .bplist: BinaryPlistRecordEncoder(layout: layout)
        }
    }
}

extension ExportRecordEncoder {
    var writesDeferredBase64: Bool { false }
}
