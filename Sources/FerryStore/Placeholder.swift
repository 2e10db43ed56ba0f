// FerryStore
