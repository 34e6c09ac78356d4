/**
 * The names the seeded catalogue gives its pets: names people give dogs,
 * cats, birds, fish, reptiles, rabbits, horses and small pets, as a pet
 * shop's listings show them. Plain data, kept here instead of taken from
 * faker's English locale: that locale is one 288 kB module (114 kB
 * gzipped) for its 42 pet names, too few for a varied catalogue (28
 * distinct names in 50 pets).
 *
 * Every name matches /^[A-Z][A-Za-z' -]+$/ and appears once (a test checks).
 */
export const petNames: readonly string[] = [
  // The most common dog and cat names.
  'Max', 'Luna', 'Bella', 'Charlie', 'Lucy', 'Cooper', 'Daisy', 'Milo', 'Bailey', 'Buddy',
  'Rocky', 'Sadie', 'Molly', 'Bear', 'Tucker', 'Duke', 'Lola', 'Stella', 'Zoe', 'Oliver',
  'Leo', 'Teddy', 'Winston', 'Jack', 'Toby', 'Bentley', 'Riley', 'Ruby', 'Rosie', 'Penny',
  'Lily', 'Maggie', 'Chloe', 'Sophie', 'Gracie', 'Coco', 'Roxy', 'Ellie', 'Nala', 'Willow',
  'Piper', 'Pepper', 'Ginger', 'Honey', 'Hazel', 'Olive', 'Mia', 'Lulu', 'Zeus', 'Murphy',
  'Jax', 'Gus', 'Henry', 'Louie', 'Ollie', 'Oscar', 'Sam', 'Simba', 'Tiger', 'Smokey',
  'Shadow', 'Oreo', 'Bandit', 'Ace', 'Archie', 'Bruno', 'Finn', 'Hank', 'Koda', 'Loki',
  'Moose', 'Nova', 'Rex', 'Rufus', 'Scout', 'Diesel', 'Ziggy', 'Thor', 'Apollo', 'Atlas',
  'Blue', 'Bo', 'Boomer', 'Bruce', 'Buster', 'Chester', 'Copper', 'Dexter', 'Gizmo', 'Harley',
  'Jasper', 'Marley', 'Maverick', 'Ranger', 'Remy', 'Rusty', 'Sammy', 'Tank', 'Bowie', 'Beau',
  'Benji', 'Dixie', 'Cookie', 'Gunner', 'Lady', 'Abby', 'Annie', 'Belle', 'Callie', 'Dolly',
  'Emma', 'Izzy', 'Kona', 'Layla', 'Maya', 'Minnie', 'Nellie', 'Phoebe', 'Sasha', 'Trixie',
  // Cats more than dogs.
  'Mittens', 'Whiskers', 'Socks', 'Patches', 'Boots', 'Felix', 'Salem', 'Misty', 'Cleo', 'Kitty',
  'Tigger', 'Pumpkin', 'Jasmine', 'Sylvester', 'Garfield', 'Mochi', 'Pixel', 'Mr Whiskers', 'Lady Grey', 'Earl Grey',
  // Food names, a favourite of owners of every kind of pet.
  'Biscuit', 'Cinnamon', 'Muffin', 'Peanut', 'Pickles', 'Waffles', 'Nugget', 'Noodle', 'Sushi', 'Tofu',
  'Cocoa', 'Fudge', 'Brownie', 'Caramel', 'Toffee', 'Marshmallow', 'Nacho', 'Taco', 'Pretzel', 'Bagel',
  'Dumpling', 'Meatball', 'Beans', 'Pistachio', 'Cashew', 'Almond', 'Cheddar', 'Brie', 'Jelly Bean', 'Cupcake',
  'Sprinkles', 'Peaches', 'Mango', 'Kiwi', 'Coconut', 'Papaya', 'Butterscotch', 'Pudding', 'Churro', 'Dorito',
  // Plants, stones and weather.
  'Basil', 'Clover', 'Maple', 'Sage', 'Juniper', 'Poppy', 'Ivy', 'Fern', 'Marigold', 'Aspen',
  'Jade', 'Opal', 'Onyx', 'Amber', 'Pearl', 'Sapphire', 'Storm', 'Sunny', 'Breeze', 'Misty Rain',
  // Birds and fish.
  'Polly', 'Tweety', 'Rio', 'Paco', 'Zazu', 'Sunflower', 'Bubbles', 'Goldie', 'Nemo', 'Splash',
  'Captain Fin', 'Gill', 'Dory', 'Wanda', 'Squirt',
  // Reptiles.
  'Spike', 'Iggy', 'Slinky', 'Monty', 'Kaa', 'Godzilla', 'Rango', 'Shelly', 'Sheldon', 'Yoshi',
  // Rabbits and small pets.
  'Thumper', 'Hopper', 'Sir Hops', 'Fluffy', 'Snowball', 'Cotton', 'Nibbles', 'Squeak', 'Chewy', 'Hammy',
  'Pip', 'Button', 'Peanut Butter', 'Hazelnut', 'Whisper', 'Dusty', 'Pebbles', 'Acorn', 'Truffle', 'Dot',
  // Horses.
  'Spirit', 'Thunder', 'Midnight', 'Comet', 'Blaze', 'Dash', 'Star', 'Shiloh', 'Shadowfax', 'Duchess',
  'Apache', 'Cheyenne', 'Dakota', 'Gypsy', 'Rebel', 'Sundance', 'Trigger', 'Whiskey', 'Beauty', 'Maestro',
  // Characters and a few with some flair.
  'Sherlock', 'Watson', 'Frodo', 'Bilbo', 'Yoda', 'Chewie', 'Pluto', 'Scooby', 'Snoopy', 'Odie',
  'Toto', 'Bolt', 'Hercules', 'Samson', "O'Malley", "D'Artagnan", 'Jean-Luc', 'Mary-Lou', 'Major Tom', 'Miss Daisy',
]
