import FerryFormats
import FerryModel
import Testing

/// Malformed and hostile archives: each gets a typed error, none crashes or loops.
@Suite("Model archive hostile input")
struct ModelArchiveHostileTests {
    /// A binary plist keyed archive of `objects` with root UID 1.
    private func archive(_ objects: [PropertyListValue]) throws -> [UInt8] {
        try BinaryPropertyListWriter().encode(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
            "$top": .dictionary(["root": .uid(1)]), "$objects": .array(objects),
        ]))
    }

    private func cls(_ name: String) -> PropertyListValue { .dictionary(["$classname": .string(name)]) }

    /// A minimal valid model: one entity `A` with no properties. Tests mutate single objects of it.
    private var minimal: [PropertyListValue] {
        [
            .string("$null"),
            .dictionary(["$class": .uid(2), "NSEntities": .uid(3)]),
            cls("NSManagedObjectModel"),
            .dictionary(["$class": .uid(4), "NS.keys": .array([.uid(5)]), "NS.objects": .array([.uid(6)])]),
            cls("NSMutableDictionary"),
            .string("A"),
            .dictionary(["$class": .uid(7), "NSEntityName": .uid(5), "NSProperties": .uid(0), "NSSuperentity": .uid(0),
                         "NSUserInfo": .uid(0)]),
            cls("NSEntityDescription"),
        ]
    }

    private func decode(_ objects: [PropertyListValue]) throws(ModelArchiveError) -> ManagedObjectModel {
        let bytes: [UInt8]
        do { bytes = try archive(objects) } catch { throw .invalid(reason: "test archive did not encode: \(error)", keyPath: "") }
        return try ModelArchiveDecoder.decodeModel(archive: bytes, name: "M")
    }

    @Test("the minimal archive decodes (control for the mutations below)")
    func minimalDecodes() throws {
        #expect(try decode(minimal).entities.map(\.name) == ["A"])
    }

    /// A compiled model or a store's model cache is held to the XML's rules: an inverse pointing
    /// elsewhere made links of one relationship fill another's column.
    @Test("an archived model whose inverse does not point back is refused, as its XML is")
    func archivedInverseMustPointBack() throws {
        func model(inverseOfB destination: String) -> ManagedObjectModel {
            ManagedObjectModel(name: "m", entities: [
                Entity(name: "A", relationships: [Relationship(name: "b", destinationEntity: "B", inverseName: "c", inverseEntity: "B")]),
                Entity(name: "B", relationships: [Relationship(name: "c", destinationEntity: destination, inverseName: "b", inverseEntity: destination)]),
                Entity(name: "C", relationships: [Relationship(name: "b", destinationEntity: "B")]),
            ])
        }
        _ = try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(model(inverseOfB: "A")), name: "m")
        let error = try #require(throws: ModelArchiveError.self) {
            try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(model(inverseOfB: "C")), name: "m")
        }
        #expect(error.description.contains("relationship 'A.b' names inverse 'B.c', which points at 'C', not at 'A'"), "\(error)")
    }

    @Test("a truncated model cache is a deflate error")
    func truncatedDeflate() throws {
        let cache = try RawDeflate.deflate(archive(minimal))
        let error = #expect(throws: ModelArchiveError.self) {
            try ModelArchiveDecoder.decodeModelCache(Array(cache.dropLast(cache.count / 2)), name: "M")
        }
        guard case .deflate(.truncated)? = error else { Issue.record("expected .deflate(.truncated), got \(String(describing: error))"); return }
    }

    @Test("a model cache that inflates beyond the limit stops at the limit")
    func bomb() throws {
        let bomb = try RawDeflate.deflate([UInt8](repeating: 0, count: 4 * 1024 * 1024))
        #expect(bomb.count < 10_000)
        let error = #expect(throws: ModelArchiveError.self) {
            try ModelArchiveDecoder.decodeModelCache(bomb, name: "M", limit: 1024 * 1024)
        }
        // It stops as soon as the output passes the limit, before reading all of the input.
        guard case .deflate(.outputLimitExceeded(1024 * 1024, let offset))? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(offset < bomb.count)
    }

    @Test("a root class other than NSManagedObjectModel is rejected by name")
    func wrongRootClass() throws {
        var objects = minimal
        objects[2] = cls("XDPMModel")
        #expect(throws: ModelArchiveError.notAManagedObjectModel(rootClass: "XDPMModel")) { try decode(objects) }
    }

    @Test("a UID past the end of $objects is a typed error with its key path")
    func uidOutOfRange() throws {
        var objects = minimal
        objects[3] = .dictionary(["$class": .uid(4), "NS.keys": .array([.uid(5)]), "NS.objects": .array([.uid(999)])])
        let error = #expect(throws: ModelArchiveError.self) { try decode(objects) }
        guard case .archive(.uidOutOfRange(999, 8, let keyPath))? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(keyPath.contains("NSEntities.NS.objects[0]"))
    }

    @Test("a collection that contains itself is a cycle, not a stack overflow")
    func collectionCycle() throws {
        var objects = minimal
        // The entity's userInfo is a dictionary whose only value is the dictionary itself.
        objects[6] = .dictionary(["$class": .uid(7), "NSEntityName": .uid(5), "NSProperties": .uid(0), "NSUserInfo": .uid(8)])
        objects.append(.dictionary(["$class": .uid(9), "NS.keys": .array([.uid(5)]), "NS.objects": .array([.uid(8)])]))
        objects.append(cls("NSDictionary"))
        let error = #expect(throws: ModelArchiveError.self) { try decode(objects) }
        guard case .archive(.cycle(8, _))? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test("an entity that is its own super-entity is rejected")
    func superentityLoop() throws {
        var objects = minimal
        objects[6] = .dictionary(["$class": .uid(7), "NSEntityName": .uid(5), "NSProperties": .uid(0), "NSSuperentity": .uid(6)])
        let error = #expect(throws: ModelArchiveError.self) { try decode(objects) }
        guard case .invalid(let reason, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("loops"))
    }

    @Test("a predicate that contains itself ends in a depth error")
    func predicateCycle() throws {
        var objects = minimal
        objects[6] = .dictionary(["$class": .uid(7), "NSEntityName": .uid(5), "NSProperties": .uid(8)])
        objects += [
            .dictionary(["$class": .uid(4), "NS.keys": .array([.uid(9)]), "NS.objects": .array([.uid(10)])]),   // 8
            .string("p"),                                                                                           // 9
            .dictionary(["$class": .uid(11), "NSPropertyName": .uid(9), "NSFetchRequest": .uid(12), "_P": .integer(255),
                         "_NSFetchRequestEntityName": .uid(5)]),                                                    // 10
            cls("NSFetchedPropertyDescription"),                                                                    // 11
            .dictionary(["$class": .uid(13), "NSEntity": .uid(6), "NSPredicate": .uid(14)]),                        // 12
            cls("NSFetchRequest"),                                                                                  // 13
            .dictionary(["$class": .uid(15), "NSCompoundPredicateType": .integer(1), "NSSubpredicates": .uid(16)]), // 14
            cls("NSCompoundPredicate"),                                                                             // 15
            .dictionary(["$class": .uid(17), "NS.objects": .array([.uid(14)])]),                                    // 16
            cls("NSArray"),                                                                                         // 17
        ]
        let error = #expect(throws: ModelArchiveError.self) { try decode(objects) }
        guard case .invalid(let reason, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("deeper"))
    }

    /// The minimal model whose entity's userInfo holds, under key `A`, `levels` NSArrays that each
    /// list the next twice, the last listing a string: 2^(levels + 1) objects for a walk.
    private func sharedUserInfo(levels: Int) -> [PropertyListValue] {
        var objects = minimal
        let dictionary = UInt64(8 + 2 * levels + 1)
        objects[6] = .dictionary(["$class": .uid(7), "NSEntityName": .uid(5), "NSUserInfo": .uid(dictionary)])
        for level in 0..<levels {
            let next = UInt64(8 + 2 * (level + 1))
            objects += [.dictionary(["$class": .uid(UInt64(9 + 2 * level)), "NS.objects": .array([.uid(next), .uid(next)])]), cls("NSArray")]
        }
        objects.append(.string("leaf"))
        objects.append(.dictionary(["$class": .uid(4), "NS.keys": .array([.uid(5)]), "NS.objects": .array([.uid(8)])]))
        return objects
    }

    @Test("a userInfo whose arrays share their members twice over is refused, not expanded 2^n times")
    func sharedCollectionsInAValue() throws {
        let objects = sharedUserInfo(levels: 11)
        let archive = try KeyedArchive(propertyList: PropertyList.decode(archive(objects)))
        let error = #expect(throws: KeyedArchiveError.self) { try archive.value(at: objects.count - 1, keyPath: "userInfo") }
        guard case .tooManyObjects(let limit, let keyPath)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(limit == 1024 && keyPath.hasPrefix("userInfo[0]"))
        let path = "$objects[6](A).NSUserInfo" + keyPath.dropFirst("userInfo".count)
        #expect(throws: ModelArchiveError.archive(.tooManyObjects(limit: limit, keyPath: path))) { try decode(objects) }
        // Sharing within the budget is fine.
        #expect(try decode(sharedUserInfo(levels: 2)).entity(named: "A")?.userInfo == [:])
    }

    @Test("a predicate whose subpredicates share their parts twice over is refused, not printed 2^n times")
    func sharedSubpredicates() throws {
        var objects = minimal
        objects[6] = .dictionary(["$class": .uid(7), "NSEntityName": .uid(5), "NSProperties": .uid(8)])
        objects += [
            .dictionary(["$class": .uid(4), "NS.keys": .array([.uid(9)]), "NS.objects": .array([.uid(10)])]),   // 8
            .string("p"),                                                                                           // 9
            .dictionary(["$class": .uid(11), "NSPropertyName": .uid(9), "NSFetchRequest": .uid(12), "_P": .integer(255),
                         "_NSFetchRequestEntityName": .uid(5)]),                                                    // 10
            cls("NSFetchedPropertyDescription"),                                                                    // 11
            .string("the request, set below"),                                                                      // 12
            cls("NSFetchRequest"),                                                                                  // 13
            cls("NSCompoundPredicate"),                                                                             // 14
            cls("NSArray"),                                                                                         // 15
            cls("NSTruePredicate"),                                                                                 // 16
            .dictionary(["$class": .uid(16)]),                                                                      // 17
        ]
        // Twenty ANDs, each of the next one twice, down to TRUEPREDICATE.
        var predicate = 17
        for _ in 0..<20 {
            objects.append(.dictionary(["$class": .uid(15), "NS.objects": .array([.uid(UInt64(predicate)), .uid(UInt64(predicate))])]))
            objects.append(.dictionary(["$class": .uid(14), "NSCompoundPredicateType": .integer(1), "NSSubpredicates": .uid(UInt64(objects.count - 1))]))
            predicate = objects.count - 1
        }
        objects[12] = .dictionary(["$class": .uid(13), "NSEntity": .uid(6), "NSPredicate": .uid(UInt64(predicate))])
        let error = #expect(throws: ModelArchiveError.self) { try decode(objects) }
        guard case .archive(.tooManyObjects)? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test("wrong types, bad class descriptions and mismatched counts are typed errors")
    func structuralDamage() throws {
        var scalarWhereUID = minimal
        scalarWhereUID[1] = .dictionary(["$class": .uid(2), "NSEntities": .integer(3)])
        #expect(throws: ModelArchiveError.archive(.unexpectedType(expected: "a UID", found: "integer", keyPath: "$top.root.NSEntities"))) {
            try decode(scalarWhereUID)
        }
        var badClass = minimal
        badClass[2] = .string("NSManagedObjectModel")
        #expect(throws: ModelArchiveError.archive(.badClassDescription(object: 1, keyPath: "$top.root.$class"))) { try decode(badClass) }
        var counts = minimal
        counts[3] = .dictionary(["$class": .uid(4), "NS.keys": .array([.uid(5)]), "NS.objects": .array([])])
        let error = #expect(throws: ModelArchiveError.self) { try decode(counts) }
        guard case .archive(.countMismatch(1, 0, _))? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test("bytes that are not a keyed archive are rejected")
    func notAnArchive() throws {
        #expect(throws: ModelArchiveError.self) { try ModelArchiveDecoder.decodeModel(archive: Array("hello".utf8), name: "M") }
        let plain = try BinaryPropertyListWriter().encode(.dictionary(["a": .integer(1)]))
        #expect(throws: ModelArchiveError.archive(.notAKeyedArchive(reason: "$archiver is not \"NSKeyedArchiver\""))) {
            try ModelArchiveDecoder.decodeModel(archive: plain, name: "M")
        }
    }

    @Test("an unknown attribute type code is a typed error naming the property")
    func unknownAttributeType() throws {
        var objects = minimal
        objects[6] = .dictionary(["$class": .uid(7), "NSEntityName": .uid(5), "NSProperties": .uid(8)])
        objects += [
            .dictionary(["$class": .uid(4), "NS.keys": .array([.uid(9)]), "NS.objects": .array([.uid(10)])]),
            .string("x"),
            .dictionary(["$class": .uid(11), "NSPropertyName": .uid(9), "NSAttributeType": .integer(4242), "_P": .integer(241)]),
            cls("NSAttributeDescription"),
        ]
        let error = #expect(throws: ModelArchiveError.self) { try decode(objects) }
        guard case .invalid(let reason, let keyPath)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("4242") && keyPath.hasSuffix("NSAttributeType"))
    }

    @Test("validation predicates without as many warnings are a typed error; an unprintable predicate only drops its rule")
    func validationCounts() throws {
        var objects = minimal
        objects[6] = .dictionary(["$class": .uid(7), "NSEntityName": .uid(5), "NSProperties": .uid(8)])
        objects += [
            .dictionary(["$class": .uid(4), "NS.keys": .array([.uid(9)]), "NS.objects": .array([.uid(10)])]),   // 8
            .string("x"),                                                                                           // 9
            .dictionary(["$class": .uid(11), "NSPropertyName": .uid(9), "NSAttributeType": .integer(200), "_P": .integer(193),
                         "NSValidationPredicates": .uid(12), "NSValidationWarnings": .uid(15)]),                  // 10
            cls("NSAttributeDescription"),                                                                          // 11
            .dictionary(["$class": .uid(13), "NS.objects": .array([.uid(14)])]),                                    // 12
            cls("NSArray"),                                                                                         // 13
            .dictionary(["$class": .uid(16)]),                                                                      // 14: a predicate class nobody prints
            .dictionary(["$class": .uid(13), "NS.objects": .array([])]),                                            // 15
            cls("NSFuturePredicate"),                                                                               // 16
        ]
        let error = #expect(throws: ModelArchiveError.self) { try decode(objects) }
        guard case .invalid(let reason, let keyPath)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("1 validation predicates but 0 warnings") && keyPath.hasSuffix("NSValidationWarnings"))
        objects[15] = .dictionary(["$class": .uid(13), "NS.objects": .array([.uid(17)])])
        objects.append(.integer(1620))                                                                              // 17
        #expect(try decode(objects).entity(named: "A")?.attribute(named: "x")?.validationRules == [])
    }
}
