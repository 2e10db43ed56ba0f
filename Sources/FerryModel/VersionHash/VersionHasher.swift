/// Computes Core Data's version hashes for a model, byte for byte as Core Data does
/// (coredata-format.md §8: checked against Apple-computed hashes in the corpus).
///
/// All integers are little-endian, all strings UTF-8 without a terminator.
public enum VersionHasher {
    /// The hashes of every entity, the model digest and the checksum.
    public static func hashes(of model: ManagedObjectModel) -> VersionHashes {
        var entityHashes: [String: [UInt8]] = [:]
        for entity in model.entities {
            let hash = entityHash(entity.name, in: model, memo: &entityHashes)
            entityHashes[entity.name] = hash
        }
        let ordered = entityHashes.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var digest = SHA512()
        var checksum = SHA256()
        for name in ordered {
            let hash = entityHashes[name] ?? []
            digest.update(Array(name.utf8))
            digest.update(hash)
            checksum.update(hash)
        }
        return VersionHashes(entityHashes: entityHashes, digest: digest.finalize(), checksum: checksum.finalize())
    }

    /// `E = SHA256(name ‖ uint8 isAbstract ‖ parent's E? ‖ property hashes sorted by property name ‖
    /// each uniqueness constraint joined by "." ‖ versionHashModifier?)`.
    static func entityHash(_ name: String, in model: ManagedObjectModel, memo: inout [String: [UInt8]]) -> [UInt8] {
        if let known = memo[name] { return known }
        guard let entity = model.entity(named: name) else { return [] }
        var bytes = Array(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parent = entity.parentName, parent != name {
            let parentHash = entityHash(parent, in: model, memo: &memo)
            memo[parent] = parentHash
            bytes += parentHash
        }
        var propertyHashes: [(name: String, hash: [UInt8])] = []
        for attribute in model.allAttributes(of: name) where !attribute.isTransient {
            propertyHashes.append((attribute.name, attributeHash(attribute)))
        }
        for relationship in model.allRelationships(of: name) where !relationship.isTransient {
            propertyHashes.append((relationship.name, relationshipHash(relationship, owner: name)))
        }
        propertyHashes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for property in propertyHashes { bytes += property.hash }
        for constraint in entity.uniquenessConstraints {
            bytes += Array(constraint.joined(separator: ".").utf8)
        }
        if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
        return SHA256.hash(bytes)
    }

    /// `P = SHA256(name ‖ uint16 flags ‖ versionHashModifier?)`; flags: optional 1, transient 2, read-only 4.
    static func propertyCore(name: String, isOptional: Bool, isTransient: Bool, isReadOnly: Bool, versionHashModifier: String?) -> [UInt8] {
        var bytes = Array(name.utf8)
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0) | (isReadOnly ? 4 : 0)
        appendLittleEndian(flags, to: &bytes)
        if let modifier = versionHashModifier { bytes += Array(modifier.utf8) }
        return SHA256.hash(bytes)
    }

    /// `A = SHA256(P ‖ uint32 type code ‖ [1 if external storage] ‖ [1 if preserved after deletion])`;
    /// a derived attribute has its own hash instead.
    static func attributeHash(_ attribute: Attribute) -> [UInt8] {
        if attribute.isDerived { return derivedAttributeHash(attribute) }
        var bytes = propertyCore(name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
                                 isReadOnly: attribute.isReadOnly, versionHashModifier: attribute.versionHashModifier)
        appendLittleEndian(UInt32(attribute.type.rawValue), to: &bytes)
        if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
        if attribute.preserveAfterDeletion { bytes.append(1) }
        return SHA256.hash(bytes)
    }

    /// `SHA256(derivation expression ‖ filtering predicate?)`, the expression in Core Data's
    /// normalised text: Core Data computes `A` and discards it, so name, type and flags do not
    /// count. A derived attribute with no expression hashes as an empty one (inferred, not seen).
    static func derivedAttributeHash(_ attribute: Attribute) -> [UInt8] {
        var bytes = Array(DerivationExpression.normalized(attribute.derivationExpression ?? "").utf8)
        if let filter = attribute.filteringPredicate { bytes += Array(filter.utf8) }
        return SHA256.hash(bytes)
    }

    /// `R = SHA256(P ‖ destination ‖ inverse? ‖ int32 maxCount ‖ int32 minCount ‖ [uint16 1 if ordered])`.
    /// The inverse name is left out when the relationship is its own inverse.
    static func relationshipHash(_ relationship: Relationship, owner: String) -> [UInt8] {
        var bytes = propertyCore(name: relationship.name, isOptional: relationship.isOptional,
                                 isTransient: relationship.isTransient, isReadOnly: false,
                                 versionHashModifier: relationship.versionHashModifier)
        bytes += Array(relationship.destinationEntity.utf8)
        let isSelfInverse = relationship.inverseName == relationship.name && relationship.destinationEntity == owner
        if let inverse = relationship.inverseName, !isSelfInverse { bytes += Array(inverse.utf8) }
        appendLittleEndian(UInt32(truncatingIfNeeded: Int32(clamping: relationship.maxCount)), to: &bytes)
        appendLittleEndian(UInt32(truncatingIfNeeded: Int32(clamping: relationship.minCount)), to: &bytes)
        if relationship.isOrdered { appendLittleEndian(UInt16(1), to: &bytes) }
        return SHA256.hash(bytes)
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
