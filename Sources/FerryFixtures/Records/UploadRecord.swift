/// One legacy upload record (model `Upload`, entity `UploadEntity`), as exported.
public struct UploadRecord: FixtureRecord, Hashable {
    /// Display name; may be empty or hold commas, quotes, newlines, CJK text and emoji.
    public var fileName: String?
    /// Size in megabytes with two decimals ("12.50"), or a bad value ("", "n/a", garbage).
    public var fileSize: String?
    /// Kind code 0–5; out-of-range integers and non-integer text occur.
    public var fileType: FieldValue
    /// Whether the upload finished.
    public var finishStatus: Bool?
    /// Thumbnail bytes (a PNG), often absent.
    public var imageData: [UInt8]?
    /// Creation time in seconds since 1970; non-integer text occurs.
    public var time: FieldValue
    /// Remote path of the uploaded file.
    public var urlPath: String?
    /// The quirks the generator put into this record (not serialised).
    public var quirks: UploadQuirks

    /// A record with the given values.
    public init(
        fileName: String?, fileSize: String?, fileType: FieldValue, finishStatus: Bool?,
        imageData: [UInt8]?, time: FieldValue, urlPath: String?, quirks: UploadQuirks = []
    ) {
        self.fileName = fileName
        self.fileSize = fileSize
        self.fileType = fileType
        self.finishStatus = finishStatus
        self.imageData = imageData
        self.time = time
        self.urlPath = urlPath
        self.quirks = quirks
    }

    /// The attribute names of `UploadEntity`, in name order.
    public static let fieldNames = ["fileName", "fileSize", "fileType", "finishStatus", "imageData", "time", "urlPath"]

    /// The value of the field at `index` in `fieldNames`.
    public func value(ofField index: Int) -> FieldValue {
        switch index {
        case 0: FieldValue(fileName)
        case 1: FieldValue(fileSize)
        case 2: fileType
        case 3: FieldValue(finishStatus)
        case 4: FieldValue(imageData)
        case 5: time
        case 6: FieldValue(urlPath)
        default: .absent
        }
    }
}
