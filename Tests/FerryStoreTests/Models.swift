import FerryModel

/// Models built in code, mirroring the Xcode models of corpus stores.
enum Models {
    /// alemar11/CoreDataPlus `SampleModel.xcdatamodel` (store `SampleModel_V1.sqlite`).
    static let sampleModelV1 = ManagedObjectModel(name: "SampleModel", versionIdentifier: "1", entities: [
        Entity(name: "Car", attributes: [
            Attribute(name: "color", type: .transformable, valueTransformerName: "ColorTransformer", customClassName: "Color"),
            Attribute(name: "currentDrivingSpeed", type: .integer64, isTransient: true, defaultValueString: "0"),
            Attribute(name: "maker", type: .string),
            Attribute(name: "markedForDeletionAsOf", type: .date),
            Attribute(name: "model", type: .string),
            Attribute(name: "numberPlate", type: .string, isOptional: false),
        ], relationships: [
            Relationship(name: "owner", destinationEntity: "Person", inverseName: "cars", inverseEntity: "Person"),
        ], uniquenessConstraints: [["numberPlate"]]),
        Entity(name: "ExpensiveSportCar", parentName: "SportCar", attributes: [
            Attribute(name: "isLimitedEdition", type: .boolean, defaultValueString: "NO"),
        ]),
        Entity(name: "Person", attributes: [
            Attribute(name: "firstName", type: .string),
            Attribute(name: "id", type: .uuid, isOptional: false, preserveAfterDeletion: true),
            Attribute(name: "isDriving", type: .boolean, isOptional: false, isTransient: true),
            Attribute(name: "lastName", type: .string),
            Attribute(name: "updatedAt", type: .date, isOptional: false),
        ], relationships: [
            Relationship(name: "cars", destinationEntity: "Car", inverseName: "owner", inverseEntity: "Car", isToMany: true),
        ], uniquenessConstraints: [["firstName", "lastName"]]),
        Entity(name: "SportCar", parentName: "Car"),
    ])

    /// alemar11/CoreDataPlus `SampleModel2.xcdatamodel` (store `SampleModel_V2.sqlite`): a fetch index.
    static let sampleModelV2 = ManagedObjectModel(name: "SampleModel2", versionIdentifier: "2", entities: [
        Entity(name: "Car", attributes: [
            Attribute(name: "maker", type: .string),
            Attribute(name: "markedForDeletionAsOf", type: .date),
            Attribute(name: "model", type: .string),
            Attribute(name: "numberPlate", type: .string, isOptional: false),
        ], relationships: [
            Relationship(name: "owner", destinationEntity: "Person", inverseName: "cars", inverseEntity: "Person"),
        ], uniquenessConstraints: [["numberPlate"]], fetchIndexes: [
            FetchIndex(name: "byMakerAndNumberPlate", elements: [.init(property: "maker"), .init(property: "numberPlate")]),
        ]),
        Entity(name: "LuxuryCar", parentName: "SportCar", renamingIdentifier: "ExpensiveSportCar", attributes: [
            Attribute(name: "isLimitedEdition", type: .boolean),
        ]),
        Entity(name: "Person", attributes: [
            Attribute(name: "firstName", type: .string),
            Attribute(name: "lastName", type: .string),
            Attribute(name: "updatedAt", type: .date, isOptional: false),
        ], relationships: [
            Relationship(name: "cars", destinationEntity: "Car", inverseName: "owner", inverseEntity: "Car", isToMany: true),
        ], uniquenessConstraints: [["firstName", "lastName"]]),
        Entity(name: "SportCar", parentName: "Car"),
    ])

    /// wibosco/CoreDataMigration-Example `CoreDataMigration_Example 3.xcdatamodel`: a one-to-one,
    /// stored as a foreign key on both sides.
    static let wiboscoV3 = ManagedObjectModel(name: "CoreDataMigration_Example 3", versionIdentifier: "", entities: [
        Entity(name: "Color", attributes: [
            Attribute(name: "colorID", type: .string), Attribute(name: "hex", type: .string),
        ], relationships: [
            Relationship(name: "post", destinationEntity: "Post", inverseName: "color", inverseEntity: "Post"),
        ]),
        Entity(name: "Post", attributes: [
            Attribute(name: "date", type: .date), Attribute(name: "postID", type: .string),
        ], relationships: [
            Relationship(name: "color", destinationEntity: "Color", inverseName: "post", inverseEntity: "Color", isOptional: false),
        ]),
    ])

    /// richardpiazza/XCServerCoreData 2.0.1: every entity (so `Z_ENT` numbers match the store),
    /// with only the three many-to-many relationships.
    static let xcServerManyToMany: ManagedObjectModel = {
        let names = ["Asset", "Bot", "BuildResultSummary", "Commit", "CommitChange", "CommitContributor", "Conditions",
                     "Configuration", "Device", "DeviceSpecification", "EmailConfiguration", "Filter", "Integration",
                     "IntegrationAssets", "IntegrationIssues", "Issue", "Platform", "Repository", "RevisionBlueprint",
                     "Stats", "StatsBreakdown", "Trigger", "XcodeServer"]
        let pairs: [(String, String, String, String)] = [
            ("Configuration", "repositories", "Repository", "configurations"),
            ("Device", "integrations", "Integration", "testedDevices"),
            ("Device", "deviceSpecifications", "DeviceSpecification", "devices"),
        ]
        let entities = names.map { name in
            Entity(name: name, relationships: pairs.flatMap { left, leftName, right, rightName -> [Relationship] in
                var result: [Relationship] = []
                if name == left {
                    result.append(Relationship(name: leftName, destinationEntity: right, inverseName: rightName, isToMany: true))
                }
                if name == right {
                    result.append(Relationship(name: rightName, destinationEntity: left, inverseName: leftName, isToMany: true))
                }
                return result
            })
        }
        return ManagedObjectModel(name: "XCServerCoreData2.0.1", entities: entities)
    }()
}
