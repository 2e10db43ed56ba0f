import FerryFormats

/// Encodes the `Z_PLIST` metadata as a binary plist. This is the one place that calls the binary
/// plist writer of FerryFormats.
func encodeMetadataPlist(_ metadata: StoreMetadata) throws(StoreWriterError) -> [UInt8] {
    do {
        return try BinaryPropertyListWriter().encode(metadata.propertyList)
    } catch {
        throw .metadataEncoding(String(describing: error))
    }
}
