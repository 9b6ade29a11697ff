"""The desktop's accessibility: the apps' element trees over AT-SPI.

* :mod:`.bus`: the private D-Bus daemon and the AT-SPI registry a session starts when asked,
  and the variables that turn each toolkit's accessibility on;
* :mod:`.wire`, :mod:`.connection`: D-Bus spoken directly, with pipelined calls and a deadline;
* :mod:`.atspi`: AT-SPI's role and state tables;
* :mod:`.reader`: reading every app's tree (or the focused window's) fast;
* :mod:`.osworld_xml`: the tree in OSWorld's XML form;
* :mod:`.linearize`: the table of visible, usable elements OSWorld's agents read;
* :mod:`.locate`: the element at a point of the screen.
"""
