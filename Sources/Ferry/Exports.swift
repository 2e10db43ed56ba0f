// `import Ferry` is the whole library: the jobs declared here and the modules their requests,
// summaries and errors are made of (see Ferry.docc for an overview of each).
@_exported import FerryFormats
@_exported import FerryMigration
@_exported import FerryModel
@_exported import FerryStore
@_exported import FerryVerify
