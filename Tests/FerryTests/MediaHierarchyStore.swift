import Ferry
import FerryStore
import FerryTestSupport
import Foundation

/// A store of an entity hierarchy, for migrations of it: `Playlist.items` ⇄ `Media.playlist`,
/// `Song` a sub-entity of `Media`. Version 1 holds playlist A (media m1, and s2, a Song) and a
/// second playlist (m3); version 2 adds `Playlist.note`, and can make `Media` abstract.
/// `Playlist.items` is ordered when asked.
enum MediaHierarchyStore {
    static func version(_ number: Int, abstractMedia: Bool = false, orderedItems: Bool = false) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Playlist" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + (number > 1 ? #"<attribute name="note" optional="YES" attributeType="String"/>"# : "")
            + #"<relationship name="items" optional="YES" toMany="YES" \#(orderedItems ? #"ordered="YES" "# : "")deletionRule="Nullify" destinationEntity="Media" inverseName="playlist" inverseEntity="Media"/></entity>"#
            + #"<entity name="Media" \#(abstractMedia ? #"isAbstract="YES" "# : "")syncable="YES"><attribute name="title" attributeType="String"/>"#
            + #"<relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="items" inverseEntity="Playlist"/></entity>"#
            + #"<entity name="Song" parentEntity="Media" syncable="YES"><attribute name="artist" optional="YES" attributeType="String"/></entity></model>"#
    }

    /// The bundle `Media` (versions 1 and 2) in `folder`, the written mapping `mapping` beside it,
    /// and the version 1 store, whose second playlist is named `second`.
    static func make(in folder: String, abstractMedia: Bool, orderedItems: Bool = false, mapping: String,
                     second: String) throws -> (bundle: String, store: String) {
        let bundle = try TestPaths.xcodeModelBundle("Media", versions: [("Media 1", version(1, orderedItems: orderedItems)),
                                                                      ("Media 2", version(2, abstractMedia: abstractMedia, orderedItems: orderedItems))],
                                                    in: folder)
        try Data("mapping \"Media 1\" -> \"Media 2\"\n\(mapping)".utf8).write(to: URL(fileURLWithPath: folder + "/Media 1 to Media 2.mapping"))
        try Data(#"[{"name": "A", "items": [{"title": "m1"}, {"title": "s2"}]}, {"name": "\#(second)", "items": [{"title": "m3"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/playlists.json"))
        let store = folder + "/source.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/playlists.json"], modelPath: bundle, modelVersion: "Media 1", entity: "Playlist",
                                                 outputPath: store)).run()
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE ZMEDIA SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Song') WHERE ZTITLE = 's2'")
        try database.close()
        return (bundle, store)
    }
}
