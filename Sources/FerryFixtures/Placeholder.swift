// FerryFixtures
