// FerryMigration
