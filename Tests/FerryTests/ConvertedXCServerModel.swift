import FerryTestSupport
import Foundation

/// XCServerCoreData's model bundle and the mapping models beside it, copied to a private folder
/// with the written mapping that converts the 1.2.0 → 2.0.0 mapping model's custom policy
/// (`IntegrationStringToDateMigrationPolicy`: three String dates become Dates), so that its
/// 1.2.0 store migrates to the newest version as the app's own migration would.
enum ConvertedXCServerModel {
    /// The `.xcdatamodeld` of the copy; empty when the corpus is absent or the copy failed.
    static let bundle: String = {
        guard let folder = try? TestPaths.temporaryFolder("xcserver-converted") else { return "" }
        let resources = TestPaths.corpus + "/coredata/richardpiazza__XCServerCoreData/Resources"
        let pattern = "\"yyyy-MM-dd'T'HH:mm:ss.SSS'Z'\""
        let mapping = """
            # What XCServerCoreData.IntegrationStringToDateMigrationPolicy does: three String dates become Dates.
            entity Integration
              queuedDate = date(queuedDate, \(pattern))
              startedTime = date(startedTime, \(pattern))
              endedTime = date(endedTime, \(pattern))

            """
        do {
            try FileManager.default.copyItem(atPath: resources, toPath: folder + "/Resources")
            try mapping.write(toFile: folder + "/Resources/XCServerCoreData1.2.0 to XCServerCoreData2.0.0.mapping", atomically: true, encoding: .utf8)
        } catch {
            return ""
        }
        return folder + "/Resources/XCServerCoreData.xcdatamodeld"
    }()
}
