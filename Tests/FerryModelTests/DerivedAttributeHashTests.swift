import FerryModel
import Testing

@Suite("derived attributes in version hashes")
struct DerivedAttributeHashTests {
    @Test("a key path ending in an aggregate becomes Core Data's function form; other text stays as it is", arguments: [
        ("pages.@count", "count:(pages)"),
        ("book.pages.@count", "count:(book.pages)"),
        ("pages.@sum", "sum:(pages)"),
        ("pages.@total", "sum:(pages)"),
        ("page_2.@count", "count:(page_2)"),
        ("count:(pages)", "count:(pages)"),
        ("sum:(pages)", "sum:(pages)"),
        ("pages", "pages"),
        ("@count", "@count"),
        (".@count", ".@count"),
        ("book..@count", "book..@count"),
        ("2pages.@count", "2pages.@count"),
        ("pages.@avg", "pages.@avg"),
        ("pages.@count.@count", "pages.@count.@count"),
        ("pages.@sum.words", "pages.@sum.words"),
        ("now()", "now()"),
    ])
    func normalization(written: String, kept: String) {
        #expect(DerivationExpression.normalized(written) == kept)
    }

    /// The hash of an entity `Book` that holds only `attribute`.
    private func bookHash(_ attribute: Attribute) -> [UInt8]? {
        VersionHasher.hashes(of: ManagedObjectModel(name: "M", entities: [Entity(name: "Book", attributes: [attribute])]))
            .entityHashes["Book"]
    }

    /// `Book`'s hash by §8 item 4 (not abstract, no parent, no constraint) when its one property hashes to `propertyHash`.
    private func expectedBookHash(propertyHash: [UInt8]) -> [UInt8] {
        SHA256.hash(Array("Book".utf8) + [0] + propertyHash)
    }

    @Test("a derived attribute hashes as its normalised expression alone: name, type, flags and modifier do not count")
    func derivedHashIsTheExpression() {
        let counted = expectedBookHash(propertyHash: SHA256.hash(Array("count:(pages)".utf8)))
        let variants = [
            Attribute(name: "pagesCount", type: .integer64, isReadOnly: true, isDerived: true, derivationExpression: "count:(pages)"),
            Attribute(name: "pagesCount", type: .double, isOptional: false, preserveAfterDeletion: true, isDerived: true,
                      derivationExpression: "count:(pages)", versionHashModifier: "v2"),
            Attribute(name: "pagesCount", type: .integer64, isReadOnly: true, isDerived: true, derivationExpression: "pages.@count"),
        ]
        for attribute in variants { #expect(bookHash(attribute) == counted) }
        #expect(bookHash(Attribute(name: "pagesCount", type: .integer64, isReadOnly: true, isDerived: true, derivationExpression: "pages.@sum"))
            == expectedBookHash(propertyHash: SHA256.hash(Array("sum:(pages)".utf8))))
        let plain = Attribute(name: "pagesCount", type: .integer64, isReadOnly: true, derivationExpression: "count:(pages)")
        #expect(bookHash(plain) != counted)
    }

    @Test("a filtering predicate follows the expression, with no separator")
    func filteringPredicateHash() {
        let filtered = Attribute(name: "pagesCount", type: .integer64, isReadOnly: true, isDerived: true,
                                 derivationExpression: "pages.@count", filteringPredicate: "number > 1")
        #expect(bookHash(filtered) == expectedBookHash(propertyHash: SHA256.hash(Array("count:(pages)number > 1".utf8))))
    }
}
