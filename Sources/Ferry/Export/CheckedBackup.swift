import FerryFormats

/// An export or backup folder checked against its manifest (`ExportVerifier.check`), with each
/// entity's file as it was opened for its check, once: its records are read from that same
/// descriptor, from its first byte (`FileByteSource.rewind`), never by opening its name again.
/// A file renamed over the checked one meanwhile is not read (its path's stamp no longer the
/// opened file's, a read to the end throws `ByteSourceError.changedWhileRead`), and neither is
/// the checked one written over in place, which changes the opened file's own stamp.
///
/// Every entity's file stays open until the restore ends: one descriptor each.
struct CheckedBackup {
    let manifest: ExportManifest
    /// The file of each entity the manifest lists, by entity name, positioned at its first byte.
    let files: [String: FileByteSource]
}
