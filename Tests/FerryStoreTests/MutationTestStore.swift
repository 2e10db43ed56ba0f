import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// A small library store whose model uses all four delete rules: Author -(Cascade)-> books,
/// Book -(Nullify)-> author, Publisher -(Deny)-> books, Library -(No Action)-> books,
/// Shelf <-(Nullify, many-to-many)-> Book, Series -(Nullify, ordered)-> books, and the Cascade
/// chain Book -> chapters (ordered) -> notes.
struct MutationTestStore {
    static let contents = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="Author" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <attribute name="born" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            <attribute name="rank" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Book" syncable="YES">
            <attribute name="title" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <relationship name="chapters" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Chapter" inverseName="book" inverseEntity="Chapter"/>
            <relationship name="library" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="books" inverseEntity="Library"/>
            <relationship name="publisher" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Publisher" inverseName="books" inverseEntity="Publisher"/>
            <relationship name="series" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Series" inverseName="books" inverseEntity="Series"/>
            <relationship name="shelves" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
        </entity>
        <entity name="Chapter" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="chapters" inverseEntity="Book"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="chapter" inverseEntity="Note"/>
        </entity>
        <entity name="Library" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Book" inverseName="library" inverseEntity="Book"/>
        </entity>
        <entity name="Note" syncable="YES">
            <attribute name="text" optional="YES" attributeType="String"/>
            <relationship name="chapter" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Chapter" inverseName="notes" inverseEntity="Chapter"/>
        </entity>
        <entity name="Publisher" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Book" inverseName="publisher" inverseEntity="Book"/>
        </entity>
        <entity name="Series" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="series" inverseEntity="Book"/>
        </entity>
        <entity name="Shelf" syncable="YES">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelves" inverseEntity="Book"/>
        </entity>
    </model>
    """

    let path: String
    let model: ManagedObjectModel
    let layout: StoreLayout

    /// Authors 1 Ann, 2 Bob; books 1–4 (1, 2 by Ann; 3 by Bob, published by P1; 4 without author);
    /// library 1 holds books 1 and 4; shelves S1 {1, 2}, S2 {1, 3}; series 1 [3, 1];
    /// chapters 1, 2 of book 1 (order 1, 2), 3 of book 3; notes 1, 2, 3 on chapters 1, 2, 3.
    init() throws {
        let folder = try TestPaths.temporaryFolder("mutation")
        try FileManager.default.createDirectory(atPath: folder + "/Library.xcdatamodel", withIntermediateDirectories: true)
        try Self.contents.write(toFile: folder + "/Library.xcdatamodel/contents", atomically: true, encoding: .utf8)
        model = try XcodeModelLoader.loadModel(at: folder + "/Library.xcdatamodel")
        layout = try StoreLayout(model: model)
        path = folder + "/Library.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: model,
                                                    versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [])
        try writer.finish()
        let n = layout.entityNumbers
        let (author, book, chapter, library, note, publisher, series, shelf) = (
            n["Author"] ?? 0, n["Book"] ?? 0, n["Chapter"] ?? 0, n["Library"] ?? 0, n["Note"] ?? 0, n["Publisher"] ?? 0,
            n["Series"] ?? 0, n["Shelf"] ?? 0)
        let join = try #require(layout.joinTables.first)
        let bookColumn = try #require(join.columns.first { $0.role == .joinKey(entity: "Book", relationship: "books") }?.name)
        let shelfColumn = try #require(join.columns.first { $0.role == .joinKey(entity: "Shelf", relationship: "shelves") }?.name)
        joinTable = join.name
        self.bookColumn = bookColumn
        try execute("""
            INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME, ZRANK) VALUES (1, \(author), 1, 'Ann', 1), (2, \(author), 1, 'Bob', 2);
            INSERT INTO ZPUBLISHER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(publisher), 1, 'P1');
            INSERT INTO ZLIBRARY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(library), 1, 'L1');
            INSERT INTO ZSHELF (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (1, \(shelf), 1, 'S1'), (2, \(shelf), 1, 'S2');
            INSERT INTO ZSERIES (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(series), 1, 'Saga');
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZAUTHOR, ZLIBRARY, ZPUBLISHER, ZSERIES, Z_FOK_SERIES) VALUES
                (1, \(book), 1, 'B1', 1, 1, NULL, 1, 2), (2, \(book), 1, 'B2', 1, NULL, NULL, NULL, NULL),
                (3, \(book), 1, 'B3', 2, NULL, 1, 1, 1), (4, \(book), 1, 'B4', NULL, 1, NULL, NULL, NULL);
            INSERT INTO ZCHAPTER (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBOOK, Z_FOK_BOOK) VALUES
                (1, \(chapter), 1, 'C1', 1, 1), (2, \(chapter), 1, 'C2', 1, 2), (3, \(chapter), 1, 'C3', 3, 1);
            INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTEXT, ZCHAPTER) VALUES (1, \(note), 1, 'N1', 1), (2, \(note), 1, 'N2', 2), (3, \(note), 1, 'N3', 3);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 4 WHERE Z_NAME = 'Book';
            """)
        try execute("INSERT INTO \(join.name) (\(bookColumn), \(shelfColumn)) VALUES (1, 1), (2, 1), (1, 2), (3, 2)")
    }

    let joinTable: String
    /// The join-table column holding book keys.
    let bookColumn: String

    func execute(_ sql: String) throws {
        try SQLiteDatabase(path: path, mode: .readWrite).execute(sql)
    }

    /// Rows of a query as `|`-joined text, in order.
    func rows(_ sql: String) throws -> [String] {
        let statement = try SQLiteDatabase(path: path, mode: .readOnly).prepare(sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.isNull(at: $0) ? "NULL" : statement.string(at: $0) ?? "" }
                .joined(separator: "|"))
        }
        return rows
    }
}
